"""Reading the data users bring (BSData catalogues), the installed store, and 40k lists in other
tools' forms: the only part of the 40k pack that reads files and XML."""
