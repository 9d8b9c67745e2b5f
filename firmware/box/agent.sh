#!/usr/bin/env bash
# The check's hands inside the booted box of firmware/check-box.sh (docs/box.md). box-agent.service (put there by
# the check, not by install.sh) runs it at every boot from the share /mnt/box; it does what /mnt/box/phase names,
# appends its times to /mnt/box/out/marks (seconds since the guest's kernel started), writes
# /mnt/box/out/PHASE.result ("passed" or "FAILED: ...") and powers the box off. A boot that ends in a power cut
# (table, power-N) runs its phones until the host kills the machine.
#   install   user pi types `sudo firmware/install.sh` in ~/companion; the owner then edits the config
#   table     systemd started the table: page, port 80, user, groups, capabilities; the hotspot, a phone joining
#             it, the voice recorded; the host menu's Wi-Fi switch (through the mock pins' FIFO) back to the home
#             network, the hotspot down, and again to the table's own; then the phones stream inputs until the
#             power goes (the first power cut)
#   power-N   the table resumed after the cut before; phones stream inputs until the power goes
#   verify    after the last cut: every acknowledged input is in the game; `systemctl stop`
set -uo pipefail
BOX=/mnt/box
OUT=$BOX/out
PHASE=$(cat "$BOX/phase")
PHONE=(/opt/box-phone/bin/python "$BOX/phone.py")
URL=http://127.0.0.1:8080  # the table's page, for the host at the table
HOTSPOT_URL=http://10.42.0.1:8080  # the same page, for a phone on the table's own Wi-Fi
KEPT=/var/lib/companion/games.phones.json
CONFIG=/etc/companion/config.toml
PRESSES=/var/lib/companion/presses  # the table's mock_presses FIFO: its mock pins' buttons, for the host's presses
exec >> "$OUT/$PHASE.log" 2>&1

mark() { printf '%s %s %s\n' "$PHASE" "$1" "$(cut -d' ' -f1 /proc/uptime)" >> "$OUT/marks"; echo "== $1"; }
finish() { echo "$1" > "$OUT/$PHASE.result"; sync; systemctl poweroff; exit 0; }
fail() { echo "FAILED: $*"; journalctl -b -u companion --no-pager | tail -40; finish "FAILED: $*"; }
# until SECONDS COMMAND...: run COMMAND every second until it succeeds; false after SECONDS.
until_ok() {
  local limit=$1; shift
  local end=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do [ "$SECONDS" -lt "$end" ] || return 1; sleep 1; done
}
config() { sed -i "s|^$1 = [^#]*|$1 = $2 |" "$CONFIG"; }

# ---------------------------------------------------------------------- install
install_phase() {
  mark agent
  cp -r "$BOX/clone" /home/pi/companion && chown -R pi:pi /home/pi/companion
  runuser -l pi -c 'cd ~/companion && sudo firmware/install.sh' > "$OUT/install.sh.log" 2>&1 ||
    fail "install.sh (out/install.sh.log)"
  mark installed
  cat "$OUT/install.sh.log"
  grep -q "reboot now" "$OUT/install.sh.log" || fail "install.sh did not ask for a reboot after turning I2C on"
  [ "$(systemctl is-enabled companion.service)" = enabled ] || fail "companion.service is not enabled"
  for group in gpio i2c spi audio; do
    id -nG companion | tr ' ' '\n' | grep -qx "$group" || fail "user companion is not in group $group"
  done
  grep -q "address=/#/10.42.0.1" /etc/NetworkManager/dnsmasq-shared.d/companion.conf || fail "no dnsmasq drop-in"
  [ -f /etc/polkit-1/rules.d/50-companion.rules ] || fail "no polkit rule"
  grep -qx snd /etc/modules-load.d/companion.conf || fail "the sound core is not loaded before the unit starts"
  # What the owner sets (/etc/companion/config.toml): stand-ins for what this machine lacks (no pins, OLED or
  # roller: mock pins, software dice that phones may ask for), the country, and the voice on.
  config display '"none"'; config pin_factory '"mock"'; config dice '"software"'; config phone_dice '"software"'
  config wifi_country '"GB"'; config voice '"espeak"'
  # The box's own: the host's fingers on the mock pins (only with pin_factory = "mock"; docs/box.md).
  echo "mock_presses = \"$PRESSES\"" >> "$CONFIG"
  grep -E '^(display|pin_factory|dice|phone_dice|wifi_country|voice|network|mock_presses) ' "$CONFIG"
  finish passed
}

# ---------------------------------------------------------------------- the table as systemd runs it
service_checks() {
  [ "$(systemctl is-active companion.service)" = active ] || fail "companion.service is not active"
  local pid status
  pid=$(systemctl show -p MainPID --value companion.service)
  status=/proc/$pid/status
  ps -o user=,group=,supgrp=,args= -p "$pid"
  [ "$(ps -o user= -p "$pid")" = companion ] || fail "the table does not run as user companion"
  for group in gpio i2c spi audio; do
    grep -qw "$(getent group "$group" | cut -d: -f3)" <(grep '^Groups:' "$status") ||
      fail "the table's process is not in group $group"
  done
  (( 0x$(awk '/^CapAmb:/ {print $2}' "$status") & 0x400 )) || fail "the table lacks CAP_NET_BIND_SERVICE"
  grep -E '^Cap(Amb|Eff|Bnd):|^NoNewPrivs:' "$status"
  "${PHONE[@]}" redirect http://127.0.0.1:80/generate_204 || fail "port 80 did not answer with the redirect"
  mark port-80
  systemd-analyze security --no-pager companion.service > "$OUT/security.txt" 2>&1
  tail -1 "$OUT/security.txt"
}

# Up: activated, not only activating (an activating connection is listed as active while wlan0 is still managed).
hotspot_up() { nmcli -t -f NAME,STATE connection show --active | grep -qx "companion-hotspot:activated"; }
dnsmasq_reads_the_drop_in() { pgrep -a dnsmasq | grep -q "conf-dir=/etc/NetworkManager/dnsmasq-shared.d"; }

hotspot_checks() {
  until_ok 240 hotspot_up || fail "no hotspot 240 s after the table answered"
  mark hotspot
  iw dev wlan0 info | tee "$OUT/wlan0.txt" | grep -q "type AP" || fail "wlan0 is not an access point"
  nmcli -f 802-11-wireless.mode,802-11-wireless.channel,802-11-wireless-security.key-mgmt,802-11-wireless-security.proto,802-11-wireless-security.pairwise,ipv4.method,ipv4.addresses \
    connection show companion-hotspot | tee "$OUT/hotspot.txt"
  grep -q "proto: *rsn" "$OUT/hotspot.txt" || fail "the hotspot is not WPA2 (RSN)"
  until_ok 60 dnsmasq_reads_the_drop_in ||
    { pgrep -a dnsmasq; fail "NetworkManager's dnsmasq does not read the drop-in folder"; }
  pgrep -a dnsmasq
}

# A phone: the second radio (wlan1) in a network namespace of its own, joining with wpa_supplicant and DHCP.
phone_on_wifi() {
  local phy wifi=$OUT/host.json run=/var/lib/box-phone  # not /run: mounted noexec, and dhclient runs dhcp.sh
  rm -rf "$run" && mkdir -p "$run" /etc/netns/phone && : > /etc/netns/phone/resolv.conf
  ip netns add phone
  phy=$(cat /sys/class/net/wlan1/phy80211/name) || fail "no wlan1"
  { iw phy "$phy" set netns name phone && ip -n phone link set lo up; } || fail "wlan1 into the phone's namespace"
  python3 - "$wifi" > "$run/wpa.conf" <<'PY'
import json, sys
wifi = json.load(open(sys.argv[1]))
print(f'ctrl_interface=/var/lib/box-phone/wpa\nnetwork={{\n ssid={wifi["ssid"].encode().hex()}\n psk="{wifi["password"]}"\n'
      ' key_mgmt=WPA-PSK\n proto=RSN\n pairwise=CCMP\n group=CCMP\n}')
PY
  cat > "$run/dhcp.sh" <<'SH'
#!/bin/sh
case "$reason" in BOUND|RENEW|REBIND|REBOOT)
  ip addr flush dev "$interface"
  ip addr add "$new_ip_address/$new_subnet_mask" dev "$interface"
  [ -z "$new_routers" ] || ip route replace default via "${new_routers%% *}" dev "$interface"
  for server in $new_domain_name_servers; do echo "nameserver $server"; done > /etc/resolv.conf ;;
esac
SH
  chmod +x "$run/dhcp.sh"
  ip netns exec phone wpa_supplicant -B -D nl80211 -i wlan1 -c "$run/wpa.conf" -f "$OUT/$PHASE.wpa.log" ||
    fail "wpa_supplicant"
  wifi_joined() { ip netns exec phone wpa_cli -p "$run/wpa" -i wlan1 status | grep -qx wpa_state=COMPLETED; }
  until_ok 90 wifi_joined || fail "the phone did not join the table's Wi-Fi (WPA2) in 90 s"
  mark phone-wifi
  ip netns exec phone dhclient -1 -v -sf "$run/dhcp.sh" -pf "$run/dhclient.pid" -lf "$run/leases" wlan1 ||
    fail "the phone got no address by DHCP"
  ip -n phone -4 addr show wlan1 | grep inet
  cat /etc/netns/phone/resolv.conf
  mark phone-dhcp
}
as_phone() { ip netns exec phone "${PHONE[@]}" "$@"; }

# The host presses the host menu's Wi-Fi switch (firmware/box/wifi-switch.presses) on the table's mock pins.
host_switches_wifi() { cat "$BOX/wifi-switch.presses" > "$PRESSES"; }
hotspot_down() { ! nmcli -t -f NAME connection show --active | grep -qx companion-hotspot; }

# The voice: snd-aloop hands what the table's aplay plays to its capture side. Wait (30 s at most) until a player
# has played and stopped for 1.5 s.
voice_played() {
  local seen=0 quiet=0 end=$((SECONDS + 30))
  while [ "$SECONDS" -lt "$end" ]; do
    if pgrep -x aplay >/dev/null; then seen=1 quiet=0
    elif [ "$seen" = 1 ]; then quiet=$((quiet + 1)); [ "$quiet" -lt 3 ] || return 0
    fi
    sleep 0.5
  done
  return 1
}

table_phase() {
  mark agent
  "${PHONE[@]}" wait "$URL" --limit 600 || fail "the page did not answer"
  mark page
  { systemd-analyze time; systemd-analyze blame | head -20; systemd-analyze critical-chain companion.service; } \
    > "$OUT/boot-analysis.txt" 2>&1
  service_checks
  hotspot_checks
  "${PHONE[@]}" host "$URL" --phones "$KEPT" --out "$OUT/host.json" \
    --setup '{"ruleset": "classic", "players": ["Ann", "Bob"]}' || fail "the host page"
  phone_on_wifi
  as_phone captive connectivitycheck.gstatic.com --out "$OUT/captive.json" || fail "the captive portal"
  mark phone-captive
  local code
  code=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["code"])' "$OUT/host.json")
  as_phone join "$HOTSPOT_URL" --jar "$OUT/ann.jar" --code "$code" --player Ann || fail "Ann's phone did not join"
  mark phone-joined
  arecord -q -D hw:Loopback,1,0 -f S16_LE -c 1 -r 22050 -d 60 "$OUT/voice.wav" &
  local recorder=$!
  sleep 1
  as_phone play "$HOTSPOT_URL" --jar "$OUT/ann.jar" --player Ann || fail "Ann's roll"
  mark phone-input
  voice_played || echo "no aplay seen playing within 30 s"
  kill -INT "$recorder"; wait "$recorder"
  mark voice
  local level
  level=$("${PHONE[@]}" loudness "$OUT/voice.wav") || fail "the recording"
  echo "voice recorded at RMS $level"
  python3 -c 'import sys; sys.exit(float(sys.argv[1]) < 0.01)' "$level" || fail "the voice was not heard (RMS $level)"
  # A second phone, for the power cuts: Bob.
  as_phone join "$HOTSPOT_URL" --jar "$OUT/bob.jar" --code "$code" --player Bob || fail "Bob's phone did not join"
  # The host, from the host menu: back to the home network; the table takes its hotspot down.
  [ -p "$PRESSES" ] || fail "no mock_presses FIFO at $PRESSES"
  host_switches_wifi
  until_ok 120 hotspot_down || fail "the hotspot stayed up after the host menu's switch to home"
  mark hotspot-down
  iw dev wlan0 info | grep -q "type AP" && fail "wlan0 is still an access point"
  # And to the table's own Wi-Fi again, for the power cuts (from the next boot on, the config opens it at once).
  config network '"hotspot"'
  sync
  host_switches_wifi
  until_ok 120 hotspot_up || fail "no hotspot after the host menu's switch to the table's own Wi-Fi"
  mark hotspot-again
  as_phone wait "$HOTSPOT_URL" --limit 120 || fail "the phone is not back on the table's Wi-Fi"
  mark streaming  # the first power cut comes during this stream
  as_phone stream "$HOTSPOT_URL" --jar "Ann=$OUT/ann.jar" --jar "Bob=$OUT/bob.jar" --acked "$OUT/acked.jsonl" ||
    fail "the phones' stream stopped"
}

stop_checks() {
  local started=$SECONDS
  systemctl stop companion.service
  systemctl show -p Result,ExecMainStatus,ExecMainCode companion.service | tee "$OUT/$PHASE.stop.txt"
  { grep -qx "Result=success" "$OUT/$PHASE.stop.txt" && grep -qx "ExecMainStatus=0" "$OUT/$PHASE.stop.txt"; } ||
    fail "systemctl stop did not end the table cleanly"
  echo "stopped in $((SECONDS - started)) s"
  mark stopped
}

# ---------------------------------------------------------------------- power cuts
power_phase() {
  mark agent
  "${PHONE[@]}" wait "$URL" --limit 600 || fail "the page did not answer after the power cut"
  mark page
  if [ -s "$OUT/acked.jsonl" ]; then
    "${PHONE[@]}" verify "$URL" --phones "$KEPT" --acked "$OUT/acked.jsonl" | tee -a "$OUT/verified.jsonl" ||
      fail "an acknowledged input is missing after the power cut"
    mark verified
  fi
  until_ok 240 hotspot_up || fail "no hotspot after the power cut"
  mark hotspot
  phone_on_wifi  # the phones know the Wi-Fi from the table phase's QR code, as a phone remembers a network
  mark streaming
  as_phone stream "$HOTSPOT_URL" --jar "Ann=$OUT/ann.jar" --jar "Bob=$OUT/bob.jar" --acked "$OUT/acked.jsonl" ||
    fail "the phones' stream stopped"
}

verify_phase() {
  mark agent
  "${PHONE[@]}" wait "$URL" --limit 600 || fail "the page did not answer after the last power cut"
  mark page
  "${PHONE[@]}" verify "$URL" --phones "$KEPT" --acked "$OUT/acked.jsonl" | tee -a "$OUT/verified.jsonl" ||
    fail "an acknowledged input is missing after the last power cut"
  service_checks
  stop_checks
  finish passed
}

case "$PHASE" in
  install) install_phase ;;
  table) table_phase ;;
  power-*) power_phase ;;
  verify) verify_phase ;;
  *) finish "FAILED: unknown phase $PHASE" ;;
esac
