"""Production settings: the database from ``DATABASE_URL`` in the environment, AutoThrottle, remote-access services
off."""

from settings.default import *  # noqa: F403  (a settings module extends the defaults by design)

# No local default: production names its database in the environment, which wins over the setting
# (journals.store.database.database_url); with neither, the crawl refuses to start.
DATABASE_URL = ""
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0
CONCURRENT_REQUESTS_PER_DOMAIN = 4
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False  # 2.19 RemoteControl extension (runs submitted code)
LOG_LEVEL = "INFO"
