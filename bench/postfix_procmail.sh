#!/bin/bash
# A mail game played through a real Postfix and procmail, on a host set up as docs/mail-host.md says:
# its shell blocks marked <!-- host: NAME --> are run as they stand, in order (this script
# gives the settings block's values: everything at localhost), with the ~/.procmailrc and
# crontab lines of its <!-- file: NAME --> blocks; a block missing, unknown or failing fails
# the script. So what is shown to work is what the guide says, word for word.
#
# Run as root on a Debian 12 host (or container) that may be given Postfix:
#     bench/postfix_procmail.sh
# Following the guide it installs Postfix, procmail and cron from Debian, makes the judge user
# (in /srv/judge), installs this repository into /srv/judge/.venv, writes judge.toml, the
# recipe and the crontab; on its own it keeps Postfix to this host (loopback, no mail to other
# hosts), makes the users gm, alice, bob, carol and watcher, creates a game, and plays it
# by mail: every order is sent with sendmail as the player, in the reply style of a real mail
# client, delivered by Postfix to procmail to `judge mail`, and the judge's answer must arrive
# in the player's mailbox. In the middle of the game the SMTP server goes down (Postfix's smtpd
# is switched off: the judge applies a move, its mail waits, exit 75; judge tick sends it once
# the server is back; Postfix delivers the message again and it is not answered again), and
# the games directory fills up (a small tmpfs: exit 75, nothing applied, the game master's note
# arrives; once space is freed the message is handled). At the end every order must have been
# answered exactly once. Then it makes `judge mail` fail (judge.toml unreadable), shows that
# Postfix defers the message (exit 75 passed on by procmail) and delivers it once fixed.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
J=/srv/judge
JUDGE=$J/.venv/bin/judge
GAME=$J/games/demo.toml
LOG=/var/log/postfix.log  # docs/mail-host.md's maillog_file
MOVES=${MOVES:-200}

step() { printf '\n== %s\n' "$*"; }
wait_for() {  # SECONDS COMMAND...: until COMMAND succeeds
    local tries=$(($1 * 5)); shift
    for _ in $(seq "$tries"); do "$@" && return 0; sleep 0.2; done
    echo "FAILED: timed out waiting for: $*"; exit 1
}
doc_block() {  # KIND NAME: the fenced block after <!-- KIND: NAME --> in docs/mail-host.md (fails when none)
    local text
    text=$(awk -v want="<!-- $1: $2 -->" '
        $0 == want {found = 1; next}
        found && /^```/ {if (inside) exit; inside = 1; next}
        inside {print}' "$REPO/docs/mail-host.md")
    [ -n "$text" ] || { echo "FAILED: no block <!-- $1: $2 --> in docs/mail-host.md" >&2; exit 1; }
    printf '%s\n' "$text"
}
host_block() { doc_block host "$1"; }
host_blocks() { sed -nE 's/^<!-- host: (.*) -->$/\1/p' "$REPO/docs/mail-host.md" | xargs; }
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

step "a host from nothing, as docs/mail-host.md says: its <!-- host: NAME --> blocks, run as they stand"
# this script's values for the doc's settings (a host of its own: everything at localhost)
DOMAIN=localhost GM=gm@localhost JUDGE_SRC=$REPO
# Postfix for this host only, before and after the doc's own settings: no mail to other hosts
echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
echo "postfix postfix/mailname string localhost" | debconf-set-selections
safe() {
    # (and one local delivery at a time to a mailbox: the players live on this host, and two
    # mails delivered at once may land in the other order)
    postconf -e "inet_interfaces = loopback-only" "inet_protocols = ipv4" "mynetworks = 127.0.0.0/8" \
        "default_transport = error:this host delivers locally only" \
        "relay_transport = error:this host delivers locally only" "local_destination_concurrency_limit = 1"
}
command -v postconf >/dev/null && safe
id judge >/dev/null 2>&1 && ! id -Gn judge | grep -qw judge && userdel judge  # an earlier run's user
mountpoint -q "$J/games" && umount "$J/games"  # an earlier run's small disk
rm -rf "$J/.venv" "$J/games" "$J/.procmailrc" "$J/.forward" "$J/judge-errors.log" "$J"/.judge-told.* "$J"/.judge-host-problem* "$J/procmail.log"
HOSTDIR=$(mktemp -d); cd "$HOSTDIR"
doc_block file "~/.procmailrc" > procmailrc
doc_block file crontab | sed "s/^MAILTO=.*/MAILTO=$GM/" > crontab   # the game master's address, as the doc says
want=(settings packages postfix user config mail)
names=$(host_blocks)
[ "$names" = "${want[*]}" ] || { echo "FAILED: docs/mail-host.md's host blocks are '$names', this script runs '${want[*]}'"; exit 1; }
for name in "${want[@]}"; do
    echo "-- docs/mail-host.md, host: $name"
    if [ "$name" = settings ]; then
        host_block settings | sed 's/^/   (yours) /'
        host_block settings | grep -qE '^DOMAIN=.*' || { echo "FAILED: no DOMAIN in the settings"; exit 1; }
        continue
    fi
    host_block "$name" | sed 's/^/   /'
    ( set -e; DOMAIN=$DOMAIN GM=$GM JUDGE_SRC=$JUDGE_SRC; eval "$(host_block "$name")" ) > "$HOSTDIR/$name.out" 2>&1 \
        || { tail -20 "$HOSTDIR/$name.out"; echo "FAILED: docs/mail-host.md's host block '$name'"; exit 1; }
    [ "$name" = packages ] && safe
done
safe; postfix reload >/dev/null 2>&1 || postfix start
: > "$LOG"
cd "$REPO"
dpkg-query -W -f='${Package} ${Version}\n' postfix procmail cron
postconf -h mail_version myhostname myorigin mailbox_command
for u in gm alice bob carol watcher; do
    id "$u" >/dev/null 2>&1 || useradd -m -s /bin/bash "$u"
    rm -f "/var/mail/$u"
done
rm -f /var/mail/judge
echo "the judge user's ~/.procmailrc:"; sed 's/^/    /' "$J/.procmailrc"
echo "the judge user's crontab:"; crontab -u judge -l | sed 's/^/    /'

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
declare -A SENT  # the orders each player sent, each to be answered exactly once
play_one() {  # STYLE: one order by mail, applied and answered
    local style=$1 who order before_move before_answers line
    line=$(next_order) || return 1
    read -r before_move who order <<< "$line"
    before_answers=$(answers "$who")
    send_order "$who" "$order" "$style"
    SENT[$who]=$(( ${SENT[$who]:-0} + 1 ))
    wait_for 30 more_answers "$who" "$before_answers"
    moved "$GAME" "$before_move" || { echo "FAILED: not applied"; exit 1; }
    printf 'move %-3s %-6s %-16s %-14s answer: %s\n' "$before_move" "$who" "'$order'" "($style)" "$(last_answer "$who" demo)"
}
outbox() { find "$J/games/.mail/outbox" -name '*.eml' 2>/dev/null | wc -l; }

smtp_outage() {  # the SMTP server down while a move comes in; exactly one answer in the end
    local who order before_move before_answers line deferred
    line=$(next_order); read -r before_move who order <<< "$line"
    before_answers=$(answers "$who"); deferred=$(deferrals)
    cp /etc/postfix/master.cf /etc/postfix/master.cf.judge-bench
    postconf -M# smtp/inet; postfix reload >/dev/null 2>&1  # nothing listens on port 25 now
    echo "Postfix's smtpd switched off: the judge cannot send"
    send_order "$who" "$order" gmail
    SENT[$who]=$(( ${SENT[$who]:-0} + 1 ))
    printf 'move %-3s %-6s %-16s %-14s sent\n' "$before_move" "$who" "'$order'" "(gmail)"
    wait_for 60 more_deferrals "$deferred"
    grep "status=deferred" "$LOG" | tail -1 | sed -E 's/^.*(to=<[^>]*>).*(status=deferred.*)$/Postfix: \1 \2/'
    moved "$GAME" "$before_move" || { echo "FAILED: not applied"; exit 1; }
    echo "applied (move $(move_now "$GAME")); its answer and reports wait in the judge's outbox: $(outbox) mails"
    cp /etc/postfix/master.cf.judge-bench /etc/postfix/master.cf; postfix reload >/dev/null 2>&1
    echo "smtpd back; cron's judge tick (run now): $(judge tick --config "$J/judge.toml" && echo 'exit 0')"
    wait_for 30 more_answers "$who" "$before_answers"
    postqueue -f  # Postfix's next try of the message, now
    wait_for 60 grep -q "duplicate: handled before, and its answer went out at" "$J/games/mail.log"
    sleep 3
    echo "delivered again by Postfix; the judge's log: $(grep "duplicate: handled before" "$J/games/mail.log" | tail -1 | sed -E 's/.*"outcome": "([^"]*)".*/\1/')"
    echo "answers to $who for this move: $(( $(answers "$who") - before_answers ))"
    [ "$(( $(answers "$who") - before_answers ))" -eq 1 ] || { echo "FAILED: not answered exactly once"; exit 1; }
}

full_disk() {  # the games directory full while a move comes in; the game master told, once
    local who order before_move before_answers line deferred notes
    cp -a "$J/games" "$HOSTDIR/games-before"
    mount -t tmpfs -o size=2m,mode=700,uid="$(id -u judge)",gid="$(id -g judge)" tmpfs "$J/games"
    cp -a "$HOSTDIR/games-before/." "$J/games/"
    as judge sh -c "cat /dev/zero > '$J/games/filler'" 2>/dev/null || true
    df -h "$J/games" | tail -1 | awk '{print "the games directory, a small disk: " $2 " size, " $4 " free"}'
    line=$(next_order); read -r before_move who order <<< "$line"
    before_answers=$(answers "$who"); deferred=$(deferrals); notes=$(grep -c "^Subject: judge: a problem on the judge's host" /var/mail/gm 2>/dev/null || true)
    send_order "$who" "$order" outlook
    SENT[$who]=$(( ${SENT[$who]:-0} + 1 ))
    printf 'move %-3s %-6s %-16s %-14s sent\n' "$before_move" "$who" "'$order'" "(outlook)"
    wait_for 60 more_deferrals "$deferred"
    grep "status=deferred" "$LOG" | tail -1 | sed -E 's/^.*(to=<[^>]*>).*(status=deferred.*)$/Postfix: \1 \2/'
    moved "$GAME" "$before_move" && { echo "FAILED: applied on a full disk"; exit 1; }
    wait_for 30 sh -c "[ \"\$(grep -c \"^Subject: judge: a problem on the judge's host\" /var/mail/gm)\" -gt ${notes:-0} ]"
    echo "the game master's mailbox: $(grep "^Subject: judge: a problem on the judge's host" /var/mail/gm | tail -1)"
    echo "the judge's log: $(grep -h "host problem" "$J/games/mail.log" "$J/judge-errors.log" 2>/dev/null | tail -1 | cut -c1-190)"
    echo "left in the games directory by the failed runs: $(find "$J/games" -name '*.part' -o -name '*.place' -o -name '*.pending' -o -name '*.tmp' | wc -l) files"
    postqueue -f; sleep 5  # Postfix tries again: still full, deferred again, no second note
    echo "notes to the game master about it: $(( $(grep -c "^Subject: judge: a problem on the judge's host" /var/mail/gm) - ${notes:-0} ))"
    rm "$J/games/filler"  # mended
    postqueue -f
    wait_for 60 more_answers "$who" "$before_answers"
    moved "$GAME" "$before_move" || { echo "FAILED: not applied once mended"; exit 1; }
    echo "space freed, delivered again: $(last_answer "$who" demo)"
}

step "playing the game by mail: Postfix -> procmail -> judge mail -> SMTP -> Postfix -> the player's mailbox"
styles=(gmail outlook apple thunderbird)
n=0
while [ "$n" -lt "$MOVES" ] && play_one "${styles[$((n % 4))]}"; do
    n=$((n + 1))
    if [ "$n" = 4 ]; then step "an SMTP outage in the middle of the game"; smtp_outage; n=$((n + 1)); step "playing on"; fi
    if [ "$n" = 9 ]; then step "a full games directory in the middle of the game"; full_disk; n=$((n + 1)); step "playing on"; fi
done
judge status "$GAME"
judge verify "$GAME"
echo "orders sent by mail: $n; answers received: alice $(answers alice), bob $(answers bob), carol $(answers carol)"
for p in alice bob carol; do
    [ "$(answers "$p")" -eq "${SENT[$p]:-0}" ] || { echo "FAILED: $p sent ${SENT[$p]:-0} orders and got $(answers "$p") answers"; exit 1; }
done
echo "every order answered exactly once"
echo "reports received: $(grep -c '^Subject: game demo: move' /var/mail/alice) by alice, $(grep -c '^Subject: game demo: move' /var/mail/watcher) public ones by the observer"
wait_for 10 grep -q "to=<judge@localhost>.*status=sent (delivered to command: procmail" "$LOG"
echo "Postfix log ($LOG): to=<judge@localhost> ... status=sent (delivered to command: procmail -a \"\$EXTENSION\")"

retry_demo() {  # judge mail fails with exit 75; the MTA keeps the message and delivers it once fixed
    local before_answers deferred
    judge new mogul "$J/games/retry.toml" --seed 2 -p alice=alice@localhost -p bob=bob@localhost \
        -p carol=carol@localhost --config "$J/judge.toml" | sed -nE 's/^  ([a-z]+): ([a-z0-9]{10}).*/\1 \2/p' > "$J/pw-retry"
    local first pw
    first=$(as judge "$J/.venv/bin/python" -c 'import sys; from judge.store import gamefile; print(gamefile.load(sys.argv[1]).awaiting()[0])' "$J/games/retry.toml")
    pw=$(awk -v p="$first" '$1 == p {print $2}' "$J/pw-retry")
    wait_for 20 grep -q "^Subject: game retry: welcome" "/var/mail/$first"
    before_answers=$(answers "$first")
    chmod 000 "$J/judge.toml"  # a host problem: the judge's user cannot read its configuration
    deferred=$(deferrals)
    printf 'From: %s@localhost\nTo: judge@localhost\nSubject: orders\n\ngame retry\nplayer %s %s\nbid\n' \
        "$first" "$first" "$pw" | as "$first" /usr/sbin/sendmail -t
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
    echo "after the fix: delivered again, answered: $(last_answer "$first" retry)"
    judge status "$J/games/retry.toml" | sed -n 1p
}

step "exit 75 through procmail: the MTA keeps the message and delivers it again"
retry_demo

mkdir -p "$HOSTDIR/games-after"; cp -a "$J/games/." "$HOSTDIR/games-after/"
umount "$J/games" && cp -a "$HOSTDIR/games-after/." "$J/games/"  # the small disk's files back on the host's
step "done: every order was applied and answered once, through an SMTP outage and a full disk"
