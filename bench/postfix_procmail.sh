#!/bin/bash
# A mail game played through a real Postfix and procmail, set up as docs/mail.md says: the
# ~/.procmailrc, ~/.forward and crontab lines are taken from docs/mail.md itself (the blocks
# marked <!-- file: ... -->), so what is shown to work is what the guide says, word for word.
#
# Run as root on a Debian 12 host (or container) that may be given Postfix:
#     bench/postfix_procmail.sh
# It installs Postfix and procmail from Debian, makes the users judge (in /srv/judge), gm,
# alice, bob, carol and watcher, configures Postfix for this host only (loopback, no mail to
# other hosts), installs this repository into /srv/judge/.venv, creates a game, and plays it
# by mail: every order is sent with sendmail as the player, in the reply style of a real mail
# client, delivered by Postfix to procmail to `judge mail`, and the judge's answer must arrive
# in the player's mailbox. Then it makes `judge mail` fail (judge.toml unreadable), shows that
# Postfix defers the message (exit 75 passed on by procmail) and delivers it once fixed; and
# the same with ~/.forward instead of procmail.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
J=/srv/judge
JUDGE=$J/.venv/bin/judge
GAME=$J/games/demo.toml
LOG=/var/log/postfix-demo.log
MOVES=${MOVES:-200}

step() { printf '\n== %s\n' "$*"; }
wait_for() {  # SECONDS COMMAND...: until COMMAND succeeds
    local tries=$(($1 * 5)); shift
    for _ in $(seq "$tries"); do "$@" && return 0; sleep 0.2; done
    echo "FAILED: timed out waiting for: $*"; exit 1
}
doc_block() {  # the fenced block after <!-- file: NAME --> in docs/mail.md
    awk -v want="<!-- file: $1 -->" '
        $0 == want {found = 1; next}
        found && /^```/ {if (inside) exit; inside = 1; next}
        inside {print}' "$REPO/docs/mail.md"
}
as() { local user=$1; shift; runuser -u "$user" -- "$@"; }
judge() { as judge "$JUDGE" "$@"; }
MBOX=$(mktemp --suffix=.py); chmod 644 "$MBOX"
cat > "$MBOX" <<'PY'
"""last USER GAME: the OK/REFUSED lines of the judge's last answer about GAME in USER's mailbox."""
import mailbox, sys
from email import message_from_bytes, policy
user = sys.argv[2]
try:
    box = mailbox.mbox(f"/var/mail/{user}", create=False)
    mails = [message_from_bytes(box.get_bytes(k), policy=policy.default) for k in box.keys()]
except (FileNotFoundError, mailbox.NoSuchMailboxError):
    mails = []
answers = [m for m in mails if str(m["Subject"]).startswith("Re: ")]
text = next(m.get_content() for m in reversed(answers) if f"game {sys.argv[3]}, " in m.get_content())
print("; ".join(" ".join(line.split()) for line in text.splitlines() if line.startswith(("  OK", "  REFUSED"))), end="")
print(" |", next(line for line in text.splitlines() if line.startswith(("All applied", "Nothing"))))
PY
answers() { grep -c "^Subject: Re: " "/var/mail/$1" 2>/dev/null || true; }  # subjects are ASCII
last_answer() { python3 "$MBOX" last "$1" "$2"; }
more_answers() { [ "$(answers "$1")" -gt "$2" ]; }
move_now() { as judge "$J/.venv/bin/python" -c 'import sys; from judge.store import gamefile; print(gamefile.load(sys.argv[1]).move)' "$1"; }
moved() { [ "$(move_now "$1")" -gt "$2" ]; }
deferrals() { grep -c "status=deferred" "$LOG" || true; }
more_deferrals() { [ "$(deferrals)" -gt "$1" ]; }

step "install Postfix and procmail from Debian"
echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
echo "postfix postfix/mailname string localhost" | debconf-set-selections
apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postfix procmail >/dev/null
dpkg-query -W -f='${Package} ${Version}\n' postfix procmail

step "Postfix for this host only: loopback, local delivery through procmail, no other hosts"
postconf -e "inet_interfaces = loopback-only" "inet_protocols = ipv4" "myhostname = localhost" \
    "mydestination = localhost" "mynetworks = 127.0.0.0/8" "maillog_file = $LOG" \
    'mailbox_command = procmail -a "$EXTENSION"' \
    "default_transport = error:this host delivers locally only" \
    "relay_transport = error:this host delivers locally only"
postfix stop >/dev/null 2>&1 || true
: > "$LOG"
postfix start 2>&1 | tail -1
postconf -h mail_version inet_interfaces mailbox_command

step "users: judge (the judge's mailbox and games), gm, the players, an observer"
for u in judge gm alice bob carol watcher; do
    home=/home/$u; [ "$u" = judge ] && home=$J
    id "$u" >/dev/null 2>&1 || useradd -m -d "$home" -s /bin/bash "$u"
    rm -f "/var/mail/$u"
done

step "install the judge into $J/.venv and write judge.toml"
rm -rf "$J/.venv" "$J/games" "$J/.procmailrc" "$J/.forward" "$J/judge-errors.log" "$J/.judge-host-problem"
/usr/bin/python3 -m venv "$J/.venv"
"$J/.venv/bin/pip" install -q "$REPO" 2>&1 | grep -v "^WARNING: Location" || true
install -d -o judge -g judge -m 755 "$J/games"
cat > "$J/judge.toml" <<'TOML'
address = "judge@localhost"
gm = "gm@localhost"
games = "games"
[smtp]
host = "127.0.0.1"
port = 25
TOML
chown judge:judge "$J/judge.toml"; chmod 600 "$J/judge.toml"

step "the judge user's ~/.procmailrc, from docs/mail.md"
doc_block "~/.procmailrc" > "$J/.procmailrc"
chown judge:judge "$J/.procmailrc"; chmod 644 "$J/.procmailrc"
cat "$J/.procmailrc"

step "the judge user's crontab, from docs/mail.md (the game master's address of this host)"
doc_block crontab | sed 's/gm@example.org/gm@localhost/' | tee "$J/crontab.txt"
if command -v crontab >/dev/null; then crontab -u judge "$J/crontab.txt"; else echo "(no cron on this host: not installed)"; fi

step "a new mail game, created by the judge user (root is refused)"
setup=$(mktemp); chmod 644 "$setup"
"$J/.venv/bin/python" - "$setup" <<'PY'
import sys, tomli_w
from judge.engine.game import Game
names = ["alice", "bob", "carol"]
st = Game.new("mogul", names, seed=1).state  # the crash card in round 2: a short whole game
deck = [st["revealed"], *st["deck"]]
deck.remove("crash"); deck.insert(1, "crash")
setup = {"start_player": st["start"], "deck": deck, "start_cards": {p: st["players"][p]["shares"][0] for p in names}}
open(sys.argv[1], "wb").write(tomli_w.dumps(setup).encode())
PY
new=(new mogul "$GAME" --seed 1 --setup "$setup" -p alice=alice@localhost -p bob=bob@localhost
     -p carol=carol@localhost --observer watcher@localhost --config "$J/judge.toml")
"$JUDGE" "${new[@]}" 2>&1 | sed 's/^/root: /' || true
out=$(judge "${new[@]}")
echo "$out" | sed -E 's/^(  [a-z]+: )[a-z0-9]{10}/\1**********/'
declare -A PW
while read -r who pw; do PW[$who]=$pw; done < <(echo "$out" | sed -nE 's/^  ([a-z]+): ([a-z0-9]{10}).*/\1 \2/p')
for p in alice bob carol watcher; do wait_for 20 grep -q "^Subject: game demo: welcome" "/var/mail/$p"; done
echo "welcome mails delivered by Postfix to /var/mail/{alice,bob,carol,watcher}"

reply_body() {  # STYLE PLAYER ORDER: a reply as that mail client writes it, orders on top or below
    local style=$1 p=$2 order=$3 own="player $2 ${PW[$2]}
$3"
    case $style in
    gmail) printf '%s\n\nOn Sun, 22 Nov 2026 at 10:00, Judge <judge@localhost> wrote:\n\n> game demo: report for %s\n> Your orders now\n' "$own" "$p" ;;
    outlook) printf '%s\n\n________________________________\nFrom: Judge <judge@localhost>\nSent: Sunday, November 22, 2026 10:00 AM\nTo: %s@localhost\nSubject: game demo\n\ngame demo\nplayer %s YOUR-PASSWORD\n' "$own" "$p" "$p" ;;
    apple) printf '%s\n\nSent from my iPhone\n\n> On 22 Nov 2026, at 10:00, Judge <judge@localhost> wrote:\n>\n> report\n' "$own" ;;
    thunderbird) printf 'On 22/11/2026 10:00, Judge wrote:\n> report for %s\n> Your orders now\n\n%s\n\nDanke\n%s\n' "$p" "$own" "$p" ;;
    esac
}
send_order() {  # PLAYER ORDER STYLE
    local p=$1 order=$2 style=$3
    { printf 'From: %s@localhost\nTo: judge@localhost\nSubject: Re: game demo: report for %s\n\n' "$p" "$p"
      reply_body "$style" "$p" "$order"; } | as "$p" /usr/sbin/sendmail -t
}
next_order() {  # the move, the awaited player and a sensible order of the judge's bot
    as judge "$J/.venv/bin/python" -c '
import sys
from judge.engine import bots
from judge.store import gamefile
g = gamefile.load(sys.argv[1])
if g.is_over(): sys.exit(1)
p = g.awaiting()[0]
print(g.move, p, f"#{g.move} {bots.choose(g, p)}")' "$GAME"
}
play_one() {  # STYLE: one order by mail, applied and answered
    local style=$1 who order before_move before_answers line
    line=$(next_order) || return 1
    read -r before_move who order <<< "$line"
    before_answers=$(answers "$who")
    send_order "$who" "$order" "$style"
    wait_for 30 more_answers "$who" "$before_answers"
    moved "$GAME" "$before_move" || { echo "FAILED: not applied"; exit 1; }
    printf 'move %-3s %-6s %-16s %-14s answer: %s\n' "$before_move" "$who" "'$order'" "($style)" "$(last_answer "$who" demo)"
}

step "playing the game by mail: Postfix -> procmail -> judge mail -> SMTP -> Postfix -> the player's mailbox"
styles=(gmail outlook apple thunderbird)
n=0
while [ "$n" -lt "$MOVES" ] && play_one "${styles[$((n % 4))]}"; do n=$((n + 1)); done
judge status "$GAME"
judge verify "$GAME"
echo "orders sent by mail: $n; answers received: alice $(answers alice), bob $(answers bob), carol $(answers carol)"
echo "reports received: $(grep -c '^Subject: game demo: move' /var/mail/alice) by alice, $(grep -c '^Subject: game demo: move' /var/mail/watcher) public ones by the observer"
wait_for 10 grep -q "to=<judge@localhost>.*status=sent (delivered to command: procmail" "$LOG"
echo "Postfix log: to=<judge@localhost> ... status=sent (delivered to command: procmail -a \"\$EXTENSION\")"

retry_demo() {  # HOW: judge mail fails with exit 75; the MTA keeps the message and delivers it once fixed
    local how=$1 before_answers deferred
    judge new mogul "$J/games/retry-$how.toml" --seed 2 -p alice=alice@localhost -p bob=bob@localhost \
        -p carol=carol@localhost --config "$J/judge.toml" | sed -nE 's/^  ([a-z]+): ([a-z0-9]{10}).*/\1 \2/p' > "$J/pw-$how"
    local first pw
    first=$(as judge "$J/.venv/bin/python" -c 'import sys; from judge.store import gamefile; print(gamefile.load(sys.argv[1]).awaiting()[0])' "$J/games/retry-$how.toml")
    pw=$(awk -v p="$first" '$1 == p {print $2}' "$J/pw-$how")
    wait_for 20 grep -q "^Subject: game retry-$how: welcome" "/var/mail/$first"
    before_answers=$(answers "$first")
    chmod 000 "$J/judge.toml"  # a host problem: the judge's user cannot read its configuration
    deferred=$(deferrals)
    printf 'From: %s@localhost\nTo: judge@localhost\nSubject: orders\n\ngame retry-%s\nplayer %s %s\nbid\n' \
        "$first" "$how" "$first" "$pw" | as "$first" /usr/sbin/sendmail -t
    wait_for 30 more_deferrals "$deferred"
    grep "status=deferred" "$LOG" | tail -1 | sed -E 's/^.*(to=<[^>]*>).*(status=deferred.*)$/Postfix: \1 \2/'
    echo "in Postfix's queue for a later try:"
    mailq | grep -B1 -A1 "temporary failure" | sed 's/^ */    /'
    echo "answers to $first so far: $(( $(answers "$first") - before_answers ))"
    test "$(( $(answers "$first") - before_answers ))" -eq 0
    echo "the judge's log ($J/judge-errors.log): $(tail -1 "$J/judge-errors.log" | cut -c1-150)"
    chmod 600 "$J/judge.toml"  # fixed; Postfix would try again within minutes, flush it now
    postqueue -f
    wait_for 30 more_answers "$first" "$before_answers"
    echo "after the fix: delivered again, answered: $(last_answer "$first" "retry-$how")"
    judge status "$J/games/retry-$how.toml" | sed -n 1p
}

step "exit 75 through procmail: the MTA keeps the message and delivers it again"
retry_demo procmail

step "the same with the judge user's ~/.forward (from docs/mail.md) instead of procmail"
doc_block "~/.forward" > "$J/.forward"
chown judge:judge "$J/.forward"; chmod 644 "$J/.forward"
cat "$J/.forward"
retry_demo forward
wait_for 10 grep -q 'status=sent (delivered to command: /srv/judge/.venv/bin/judge mail' "$LOG"
echo "Postfix log: delivered to command: /srv/judge/.venv/bin/judge mail --config /srv/judge/judge.toml"

step "done: every order was applied and answered"
