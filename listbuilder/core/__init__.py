"""The pure domain: models, the list engine and derived values.

Nothing in this package imports a UI, PDF or YAML library, or touches the file system.
"""
