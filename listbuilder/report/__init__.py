"""Ways of showing a checked roster: plain text, JSON, and (pdf.py) a printable PDF."""
