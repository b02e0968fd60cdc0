"""NovaMart: a customer-service RL environment whose policies are rule files."""
