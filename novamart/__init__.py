"""NovaMart: a customer-service RL environment whose policies are rule files."""

from novamart._openenv_import import import_openenv_core

import_openenv_core()
