"""Warhammer 40,000 10th edition: the catalog model of the user's imported data."""
