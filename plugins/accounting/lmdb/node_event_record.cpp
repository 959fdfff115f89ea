// node_event_record.cpp - packs and unpacks node events (format in node_event_record.hpp).
#include "node_event_record.hpp"

#include <algorithm>
#include <cstring>

#include "codec.hpp"

namespace drover::acct_lmdb {

namespace {

constexpr uint8_t kVersion = 1;

drover_str str(const std::string &s) {
    return drover_str{s.data(), s.size()};
}

} // namespace

NodeEventRecord NodeEventRecord::from(const drover_acct_node_event &in) {
    drover_acct_node_event ev{};
    std::memcpy(&ev, &in, std::min<size_t>(in.struct_size, sizeof ev));
    NodeEventRecord r;
    r.state = ev.state;
    r.flags = ev.flags;
    r.reason_uid = ev.reason_uid;
    r.start_time = ev.start_time;
    r.end_time = ev.end_time;
    r.cluster = copy(ev.cluster);
    r.node_name = copy(ev.node_name);
    r.reason = copy(ev.reason);
    return r;
}

drover_acct_node_event NodeEventRecord::view() const {
    drover_acct_node_event ev{};
    ev.struct_size = sizeof ev;
    ev.state = state;
    ev.flags = flags;
    ev.reason_uid = reason_uid;
    ev.cluster = str(cluster);
    ev.node_name = str(node_name);
    ev.reason = str(reason);
    ev.start_time = start_time;
    ev.end_time = end_time;
    return ev;
}

std::string node_event_cluster_prefix(std::string_view cluster) {
    std::string k(cluster);
    k.push_back('\0');
    return k;
}

std::string NodeEventRecord::key() const {
    std::string k = node_event_cluster_prefix(cluster);
    const auto start = static_cast<uint64_t>(start_time);
    for (int shift = 56; shift >= 0; shift -= 8)
        k.push_back(static_cast<char>(start >> shift & 0xff));
    return k + node_name;
}

std::string NodeEventRecord::pack() const {
    Writer w;
    w.u8(kVersion);
    w.u32(state);
    w.u32(flags);
    w.u32(reason_uid);
    w.u64(static_cast<uint64_t>(start_time));
    w.u64(static_cast<uint64_t>(end_time));
    w.str(str(cluster));
    w.str(str(node_name));
    w.str(str(reason));
    return w.take();
}

std::optional<NodeEventRecord> NodeEventRecord::unpack(std::string_view bytes) {
    Reader r(bytes);
    if (r.u8() != kVersion) return std::nullopt;
    NodeEventRecord rec;
    rec.state = r.u32();
    rec.flags = r.u32();
    rec.reason_uid = r.u32();
    rec.start_time = static_cast<int64_t>(r.u64());
    rec.end_time = static_cast<int64_t>(r.u64());
    rec.cluster = r.str();
    rec.node_name = r.str();
    rec.reason = r.str();
    if (!r.ok()) return std::nullopt;
    return rec;
}

} // namespace drover::acct_lmdb
