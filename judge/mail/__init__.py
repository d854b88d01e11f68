"""Play by email: reading messages (parse), handling them (gateway), a game's mail data
(mailgame), passwords, the outbox (SMTP or Maildir) and deadlines (`judge tick`)."""
