#!/usr/bin/env bash
# package_test.sh - the Debian packages (cpack -G DEB) as an admin installs them: each package
# holds what it should and depends on drover-common of its own version; installed into a root
# of its own (dpkg --root) they run a cluster from there, loading the plugins they installed, not
# the build tree's; the daemons tell a Type=notify unit's socket they serve (READY=1, from their
# own pid, once clients get answers) and write the pid files slurm.conf names; man pages and
# bash completion are where man and bash-completion look; the units pass
# systemd-analyze verify; an upgrade to a later version keeps the queue and the site's logrotate
# file, and purge removes it; lintian finds no error; on a systemd host the maintainer scripts
# reload systemd, restart the controller on an upgrade, stop it on removal and reload after.
source "$(dirname "$0")/lib.sh"
BUILD=$BIN
cd "$T"

# ---- the packages ----
timeout 240 cpack --config "$BUILD/CPackConfig.cmake" -B "$T/pkg" > "$T/cpack.log" 2>&1 ||
  { fail "cpack failed: $(tail -5 "$T/cpack.log")"; finish; exit 1; }
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$BUILD/CPackConfig.cmake")
prefix=$(sed -n 's/^set(CPACK_PACKAGING_INSTALL_PREFIX "\(.*\)")$/\1/p' "$BUILD/CPackConfig.cmake")
names=$(for d in "$T"/pkg/*.deb; do dpkg-deb -f "$d" Package; done | sort | tr '\n' ' ')
assert_eq "drover-client drover-common drover-controller drover-dev drover-node drover-plugins-lua drover-plugins-postgres " \
  "$names" "cpack makes one package per component"
deb() { ls "$T"/pkg/"$1"_*.deb; }
contents() { dpkg-deb -c "$(deb "$1")" | awk '{print $6}' | sed 's|^\.||'; }
assert_contains "drover-common (= $version)" "$(dpkg-deb -f "$(deb drover-controller)" Depends)" \
  "drover-controller depends on drover-common of its version"
assert_match "libc6" "$(dpkg-deb -f "$(deb drover-node)" Depends)" "and on the libraries it links (shlibdeps)"
has() {  # PACKAGE PATH-REGEX MESSAGE
  contents "$1" | grep -qE "^$2$" && ok "$3" || fail "$3: $1 has no $2"
}
has drover-controller "$prefix/sbin/droverctld" "drover-controller: droverctld"
has drover-controller "$prefix/sbin/drover-restd" "drover-controller: the REST daemon"
has drover-controller "$prefix/lib/systemd/system/drover-restd.service" "drover-controller: its unit"
has drover-controller "$prefix/share/man/man8/drover-restd.8.gz" "drover-controller: drover-restd(8)"
has drover-controller "$prefix/lib/systemd/system/droverctld.service" "drover-controller: its unit"
has drover-node "$prefix/sbin/droverd" "drover-node: droverd"
has drover-node "$prefix/sbin/drover-pmix" "drover-node: the PMIx server"
has drover-node "$prefix/sbin/drover-shepherd" "drover-node: the step shepherd"
has drover-node "$prefix/lib/systemd/system/droverd.service" "drover-node: its unit"
has drover-client "$prefix/bin/sbatch" "drover-client: the commands as Slurm names them"
has drover-client "$prefix/share/man/man1/squeue.1.gz" "drover-client: the commands' man pages (gzipped)"
has drover-client "$prefix/share/bash-completion/completions/scontrol" "drover-client: bash completion"
has drover-controller "$prefix/share/man/man8/droverctld.8.gz" "drover-controller: droverctld(8)"
has drover-node "$prefix/share/man/man8/droverd.8.gz" "drover-node: droverd(8)"
has drover-common "$prefix/share/man/man5/slurm.conf.5.gz" "drover-common: slurm.conf(5)"
has drover-common "$prefix/lib.*/drover/select_cons_tres.so" "drover-common: the plugins"
has drover-common "$prefix/lib/tmpfiles.d/drover.conf" "drover-common: the tmpfiles.d entry"
has drover-plugins-postgres "$prefix/lib.*/drover/accounting_postgres.so" "the postgres plugin apart"
has drover-dev "$prefix/include/drover/.*\.h" "drover-dev: the SDK headers"
has drover-dev "$prefix/lib.*/pkgconfig/drover.pc" "drover-dev: a pkg-config file"
has drover-dev "$prefix/share/doc/drover-dev/examples/hello_sched/sjf.c" "drover-dev: the example plugins"
contents drover-common | grep -q "accounting_postgres" &&
  fail "drover-common must not pull libpq: it holds accounting_postgres" || ok "drover-common holds no libpq plugin"

# Debian's checker: no error, but the two that only say the prefix is /usr/local (packages for a
# site are configured with -DCMAKE_INSTALL_PREFIX=/usr). Packages of a sanitized build (CI's
# build-asan) are no release packages: lintian judges those of a plain build.
if grep -q '^DROVER_SANITIZE:[A-Z]*=.' "$BUILD/CMakeCache.txt"; then
  echo "# lintian: not run on the packages of a sanitized build"
else
  suppress=""
  [ "$prefix" = /usr/local ] && suppress="--suppress-tags file-in-usr-local,dir-in-usr-local"
  errors=$(timeout 240 lintian $suppress "$T"/pkg/*.deb 2>&1 | grep '^E:')
  assert_eq "" "$errors" "lintian finds no errors in the packages"
fi

# The maintainer scripts on a host that runs systemd: run in a mount namespace whose /run has
# /run/systemd/system, with a systemctl that writes down how it was called.
mkdir -p "$T/fake" "$T/ctl"
printf '#!/bin/sh\necho "systemctl $*" >> %s/systemctl.log\n' "$T" > "$T/fake/systemctl"
chmod +x "$T/fake/systemctl"
dpkg-deb -e "$(deb drover-controller)" "$T/ctl"
maint() {  # SCRIPT ARGS...: what the script asked of systemctl
  : > "$T/systemctl.log"
  unshare -m bash -c 'mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/system &&
    PATH=$1:$PATH sh "$2" "${@:3}"' maint "$T/fake" "$T/ctl/$1" "${@:2}" >/dev/null 2>&1
  tr '\n' '|' < "$T/systemctl.log"
}
assert_eq "systemctl daemon-reload|" "$(maint postinst configure)" "a first install makes systemd read the unit"
assert_eq "systemctl daemon-reload|systemctl try-restart droverctld.service|" \
  "$(maint postinst configure 0.0.9)" "an upgrade restarts a running controller"
assert_eq "systemctl stop droverctld.service|" "$(maint prerm remove)" "removal stops it"
assert_eq "" "$(maint prerm upgrade 0.1.1)" "an upgrade does not stop it before the new files are in"
assert_eq "systemctl daemon-reload|" "$(maint postrm remove)" "and once its unit is gone systemd forgets it"

# ---- installed into a root of its own ----
R=$T/root
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/var/log"
: > "$R/var/lib/dpkg/status"
dpkg_root() {
  dpkg --root="$R" --log="$R/var/log/dpkg.log" --force-script-chrootless --force-depends \
    --force-not-root "$@" > "$T/dpkg.log" 2>&1
}
dpkg_root -i "$T"/pkg/*.deb && ok "dpkg installs the packages" || fail "dpkg -i: $(tail -5 "$T/dpkg.log")"
assert_eq "7" "$(dpkg-query --admindir="$R/var/lib/dpkg" -W -f '${Status}\n' 'drover-*' | grep -c 'install ok installed')" \
  "every package is installed"
[ -f "$R/etc/logrotate.d/drover" ] && ok "postinst puts the logrotate file in /etc/logrotate.d" ||
  fail "no $R/etc/logrotate.d/drover"
unit=$R$prefix/lib/systemd/system/droverctld.service
assert_match "^ExecStart=$prefix/sbin/droverctld -D" "$(grep ^ExecStart= "$unit")" "the unit starts the installed daemon"
if command -v systemd-analyze >/dev/null; then
  # verify checks the units' syntax and that ExecStart names a program; it looks for it on /.
  mkdir -p "$T/units"
  sed "s|$prefix/sbin|$R$prefix/sbin|" "$unit" > "$T/units/droverctld.service"
  sed "s|$prefix/sbin|$R$prefix/sbin|" "$R$prefix/lib/systemd/system/droverd.service" > "$T/units/droverd.service"
  sed "s|$prefix/sbin|$R$prefix/sbin|" "$R$prefix/lib/systemd/system/drover-restd.service" > "$T/units/drover-restd.service"
  out=$(systemd-analyze verify "$T"/units/*.service 2>&1 | grep -v "ConditionPathExists\|Failed to .*bus\|System has not been booted")
  assert_eq "" "$out" "systemd-analyze verify passes the units"
fi

# A vendor's plugin built against the installed SDK with pkg-config (the example sched/sjf).
pc() { PKG_CONFIG_PATH=$(dirname "$R$(contents drover-dev | grep '/drover.pc$')") PKG_CONFIG_SYSROOT_DIR=$R pkg-config "$@" drover; }
# It says it was built for ABI 1.1, as a plugin built before the ABI's later minors would: the
# installed daemons, and the upgraded ones, must still load it.
mkdir -p "$T/vendor"
sed 's/\.abi_minor = DROVER_ABI_MINOR,/.abi_minor = 1,/' \
  "$R$prefix/share/doc/drover-dev/examples/hello_sched/sjf.c" > "$T/vendor/sjf.c"
cc -shared -fPIC -Wall -Werror $(pc --cflags) -o "$T/vendor/sched_sjf.so" "$T/vendor/sjf.c" \
  2> "$T/cc.log" && ok "a plugin builds against the installed SDK (pkg-config)" ||
  fail "cc: $(head -5 "$T/cc.log")"
assert_eq "$prefix/lib" "$(pc --variable=plugindir | sed "s|^$R||; s|/drover$||; s|/x86_64-linux-gnu||")" \
  "pkg-config names the plugin directory"

# A tree the cluster helpers start daemons from, made of the installed programs (symlinks: the
# programs see their real place, /proc/self/exe, and look for plugins beside it).
BIN=$T/installed
mkdir -p "$BIN/core/ctld" "$BIN/core/noded"
ln -s "$R$prefix/sbin/droverctld" "$BIN/core/ctld/droverctld"
ln -s "$R$prefix/sbin/droverd" "$BIN/core/noded/droverd"
ln -s "$R$prefix/bin" "$BIN/core/cli"
# The vendor installs theirs where pkg-config says; no PluginDir: the daemons find both there.
plugins=$(dirname "$(contents drover-common | grep '/select_linear.so$')")
cp "$T/vendor/sched_sjf.so" "$R$plugins/"
make_cluster 1 "SlurmctldPidFile=$T/run/droverctld.pid" "SlurmdPidFile=$T/run/droverd.pid" \
  "SchedulerType=sched/sjf"
mkdir -p "$T/run"
export NOTIFY_SOCKET=$T/notify
python3 "$ROOT/tests/integration/notify_listener.py" "$NOTIFY_SOCKET" "$T/notified" 2 &
listener=$!
wait_until 30 test -S "$NOTIFY_SOCKET" || fail "the notification socket is not there"
cluster_start "$T/c" 1 || fail "the installed daemons did not start: $(tail -3 "$T"/c/log/*.log)"
unset NOTIFY_SOCKET
assert_match "loaded $R$plugins/select_linear.so" "$(cat "$T/c/log/droverctld.log")" \
  "the installed controller loads the installed plugins"
assert_match "\[sched/sjf\] loaded $R$plugins/sched_sjf.so version 1.0.0 \(ABI 1.1\)" \
  "$(cat "$T/c/log/droverctld.log")" "and the vendor's, built for an older ABI minor"
j=$(sbatch --parsable -o "$T/job.out" --wrap 'env')
wait_job "$j" && assert_eq "COMPLETED" "$(sacct -n -X -P -j "$j" -o State)" "a job runs on the installed cluster"
grep -q '^NOTIFY_SOCKET=' "$T/job.out" && fail "a job inherits NOTIFY_SOCKET" ||
  ok "a job does not inherit the daemons' NOTIFY_SOCKET"

wait "$listener"
ctld=$(cat "$T/c/ctld.pid") node=$(cat "$T/c/n1.pid")
# Lines "PID MESSAGE PING-STATUS", one per daemon.
assert_contains $'\n'"$ctld READY=1 0"$'\n' $'\n'"$(cat "$T/notified")"$'\n' "droverctld says READY=1 once it answers clients"
assert_contains $'\n'"$node READY=1 0"$'\n' $'\n'"$(cat "$T/notified")"$'\n' "droverd says READY=1"
assert_eq "$ctld" "$(cat "$T/run/droverctld.pid" 2>/dev/null)" "SlurmctldPidFile holds droverctld's pid"
assert_eq "$node" "$(cat "$T/run/droverd.pid" 2>/dev/null)" "SlurmdPidFile holds droverd's pid"
held=$(sbatch --parsable -H --wrap true)  # for the upgrade below
cluster_stop "$T/c"
[ ! -e "$T/run/droverctld.pid" ] && [ ! -e "$T/run/droverd.pid" ] &&
  ok "the pid files go when the daemons stop" || fail "pid files left: $(ls "$T/run")"

# ---- upgrade: the state stays, the new programs take it up ----
# The same tree packaged as a later version: dpkg upgrades every package in place.
later=$version+upgrade1
timeout 240 cpack --config "$BUILD/CPackConfig.cmake" -B "$T/pkg2" -D "CPACK_PACKAGE_VERSION=$later" \
  > "$T/cpack2.log" 2>&1 || fail "cpack of $later: $(tail -5 "$T/cpack2.log")"
assert_contains "drover-common (= $later)" "$(dpkg-deb -f "$(ls "$T"/pkg2/drover-node_*.deb)" Depends)" \
  "a later version's packages depend on drover-common of that version"
echo "# site edit" >> "$R/etc/logrotate.d/drover"
dpkg_root -i "$T"/pkg2/*.deb || fail "upgrade: $(tail -5 "$T/dpkg.log")"
assert_eq "7" "$(dpkg-query --admindir="$R/var/lib/dpkg" -W -f '${Version} ${Status}\n' 'drover-*' |
  grep -c "^$later install ok installed")" "dpkg upgrades every package to $later"
assert_match "# site edit" "$(cat "$R/etc/logrotate.d/drover")" "an upgrade keeps the site's logrotate file"
cluster_start "$T/c" 1 || fail "the upgraded daemons did not start: $(tail -3 "$T"/c/log/*.log)"
assert_eq 2 "$(grep -c "\[sched/sjf\] loaded $R$plugins/sched_sjf.so version 1.0.0 (ABI 1.1)" \
  "$T/c/log/droverctld.log")" "the upgraded controller loads the vendor's plugin built before the upgrade"
assert_eq "PD" "$(squeue -h -j "$held" -o %t)" "a job queued before the upgrade is still there"
scancel "$held"
cluster_stop "$T/c"

# What systemctl status shows of a unit whose slurm.conf is broken: the daemon's stderr (-D),
# naming the file and line, and a failed start (no READY=1).
{ cat "$SLURM_CONF"; echo "TreeWidth=wide"; } > "$T/broken.conf"
line=$(wc -l < "$T/broken.conf")
out=$("$R$prefix/sbin/droverctld" -D -f "$T/broken.conf" 2>&1); rc=$?
assert_eq 1 "$rc" "a broken slurm.conf stops the installed controller"
assert_contains "$T/broken.conf:$line: bad value for TreeWidth: 'wide'" "$out" "with the file and line"

# ---- purge ----
dpkg_root --purge drover-client drover-controller drover-node drover-dev drover-plugins-lua \
  drover-plugins-postgres drover-common || fail "purge: $(tail -5 "$T/dpkg.log")"
[ ! -e "$R/etc/logrotate.d/drover" ] && [ ! -e "$R$prefix/sbin/droverctld" ] &&
  ok "purge removes the programs and the logrotate file" || fail "left after purge: $(find "$R" -type f | grep -v var/lib/dpkg | head)"

finish
