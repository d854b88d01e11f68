"""The league: ratings and reliability across finished games, from public records alone
(docs/league.md). records: the finished games of a source; rating: the Plackett-Luce model;
reliability: each player's conduct in a game; table: the league and its text, JSON and CSV;
admission: a game master's minimum reliability; html: the league for the static site."""
