"""Reproduction and regression harness for AI-agent frameworks.

The core (this package, minus the per-framework modules ``adk`` and
``openai_agents``) imports no framework, so it loads in every environment.
"""

__version__ = "0.1.0"
