from journals.integration.values import decimals_of, find_year, parse_numbers


def test_numbers_decimal_commas_decided_per_vector():
    assert parse_numbers(["4.117", "3,250", None, "n/a"]) == [(4.117, 3), (3.25, 3), None, None]
    assert parse_numbers(["€2,290", "€1,500"]) == [(2290.0, 0), (1500.0, 0)]
    assert parse_numbers(["12,5"]) == [(12.5, 1)]
    assert parse_numbers(["Journal of X"]) == [None]


def test_years_and_decimals():
    assert find_year(" (2024)") == 2024
    assert find_year("no year 1234") is None
    assert decimals_of(4.1) == 1 and decimals_of(3.0) == 0
