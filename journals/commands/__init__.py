"""Project commands (COMMANDS_MODULE): sandbox, mdr, extract, evaluate…"""
