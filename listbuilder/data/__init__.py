"""Reading YAML with positions: game data (lists/, datasheets/) and located errors."""
