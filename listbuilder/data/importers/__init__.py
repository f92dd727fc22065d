"""Importers of data that users bring: BattleScribe catalogues (bsdata)."""

# The games `listbuilder data fetch` can download: game id -> GitHub repository. Here, not in
# fetch.py, so that the command table names them without loading the downloader.
REPOSITORIES = {"wh40k-10e": "BSData/wh40k-10e"}
