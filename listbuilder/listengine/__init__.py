"""The data-first engine for formation/upgrade games: army lists are its data (Epic Armageddon's
twelve tournament lists), and it knows no game but what a list and its pack say."""
