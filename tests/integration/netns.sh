# netns.sh - network namespaces joined by a bridge, for tests that run daemons each in a
# namespace of their own and cut and heal their links. Sourced after lib.sh; needs root and
# ip netns (netns_usable).
#
#   netns_setup PREFIX COUNT   a bridge at $NETNS_NET.1/24 and namespaces PREFIX1-$NETNS_TAG ..
#                              PREFIXCOUNT-$NETNS_TAG, namespace I with eth0 at $NETNS_NET.1I,
#                              joined to the bridge by the veth PREFIXvI-$NETNS_TAG
#   netns_name PREFIX I        the name of namespace I
#   netns_link PREFIX I up|down  heals or cuts namespace I's link
#   netns_teardown             removes what netns_setup made (status kept, for an EXIT trap)

netns_usable() { [ "$(id -u)" = 0 ] && ip netns list >/dev/null 2>&1; }

netns_setup() {
  NETNS_PREFIX=$1 NETNS_COUNT=$2
  NETNS_TAG=$(( $$ % 10000 ))
  NETNS_NET=10.$(( 100 + $$ % 100 )).$(( $$ / 100 % 250 ))
  NETNS_BR=${1}br$NETNS_TAG
  ip link add "$NETNS_BR" type bridge && ip addr add "$NETNS_NET.1/24" dev "$NETNS_BR" &&
    ip link set "$NETNS_BR" up || { fail "cannot make a bridge"; finish; exit 1; }
  local i ns
  for i in $(seq 1 "$2"); do
    ns=$(netns_name "$1" "$i")
    ip netns add "$ns"
    ip link add "${1}v$i-$NETNS_TAG" type veth peer name eth0 netns "$ns"
    ip link set "${1}v$i-$NETNS_TAG" master "$NETNS_BR" up
    ip netns exec "$ns" ip addr add "$NETNS_NET.1$i/24" dev eth0
    ip netns exec "$ns" ip link set eth0 up
    ip netns exec "$ns" ip link set lo up
  done
}

netns_name() { echo "$1$2-$NETNS_TAG"; }
netns_link() { ip link set "${1}v$2-$NETNS_TAG" "$3"; }

netns_teardown() {
  local rc=$? i
  [ -n "${NETNS_BR:-}" ] || return $rc
  for i in $(seq 1 "$NETNS_COUNT"); do
    ip netns del "$(netns_name "$NETNS_PREFIX" "$i")" 2>/dev/null
    ip link del "${NETNS_PREFIX}v$i-$NETNS_TAG" 2>/dev/null
  done
  ip link del "$NETNS_BR" 2>/dev/null
  return $rc
}
