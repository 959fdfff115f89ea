// partition_update.cpp - partitions changed at run time: scontrol create, update and delete
// partition, and the records that keep those changes over a restart or a takeover. A record
// "part/<name>" in the meta table is a PartitionUpdateRequest: action "set" with every setting of
// the partition (slurm.conf's keys, read back through set_partition_key), or "delete" for a
// partition of slurm.conf that was deleted. Records win over slurm.conf's lines, as Slurm's saved
// partition state does.
#include <grp.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/ascii.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"
#include "common/partition_keys.hpp"
#include "ctld/events.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/store/committer.hpp"
#include "proto/fb_read.hpp"
#include "proto/message_generated.h"
#include "state/store.hpp"
#include "proto/key_values.hpp"

namespace drover::ctld {

namespace {

constexpr std::string_view kPrefix = "part/";
constexpr std::string_view kSet = "set";
constexpr std::string_view kDeleted = "delete";

// Slurm's refusals (ESLURM_INVALID_PARTITION_NAME, ESLURM_INVALID_NODE_NAME,
// ESLURM_PARTITION_IN_USE).
constexpr const char *kInvalidPartition = "Invalid partition name specified";
constexpr const char *kInvalidNode = "Invalid node name specified";
constexpr const char *kInUse = "Partition is in use";

std::string record_key(const std::string &name) {
    return std::string(kPrefix) + name;
}

std::vector<uint8_t> encode(std::string_view action, const PartitionFields &fields) {
    flatbuffers::FlatBufferBuilder fbb(512);
    auto v = proto::key_values(fbb, fields);
    fbb.Finish(proto::CreatePartitionUpdateRequest(fbb, fbb.CreateString(action), v));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

PartitionFields fields_of(const proto::PartitionUpdateRequest &r) {
    PartitionFields out;
    if (r.fields())
        for (const auto *kv : *r.fields())
            out.emplace_back(proto::str(kv->key()), proto::str(kv->value()));
    return out;
}

} // namespace

Partition NodeManager::make_partition(std::shared_ptr<PartitionConf> conf) const {
    Partition p;
    p.state = conf->state;
    p.nodes = Bitmap(nodes_.size());
    for (uint32_t i : conf->nodes) {
        if (i >= nodes_.size() || p.nodes.test(i)) continue;
        p.nodes.set(i);
        p.total_cpus += nodes_[i].conf->cpus;
    }
    for (const auto &g : conf->allow_groups) {
        if (ascii_lower(g) == "all") {
            p.allow_gids.clear();
            break;
        }
        if (const group *gr = ::getgrnam(g.c_str()))
            p.allow_gids.push_back(gr->gr_gid);
        else
            spdlog::warn("partition {}: AllowGroups names unknown group {}", conf->name, g);
    }
    p.conf = std::move(conf);
    return p;
}

Status NodeManager::resolve_partition_nodes(PartitionConf &conf, bool lenient) const {
    conf.nodes.clear();
    const std::string &expr = conf.nodes_expr; // trimmed by set_partition_key
    if (ascii_lower(expr) == "all") {
        for (uint32_t i = 0; i < nodes_.size(); ++i) conf.nodes.push_back(i);
        return {};
    }
    std::vector<std::string> names;
    try {
        names = hostlist_expand(expr);
    } catch (const ParseError &) {
        return invalid(kInvalidNode);
    }
    std::vector<bool> seen(nodes_.size());
    for (const auto &name : names) {
        int i = index_of(name);
        if (i < 0 && lenient) {
            spdlog::warn("partition {}: node {} is no longer configured; dropped", conf.name, name);
            continue;
        }
        if (i < 0) return invalid(kInvalidNode);
        if (!seen[std::size_t(i)]) conf.nodes.push_back(uint32_t(i));
        seen[std::size_t(i)] = true;
    }
    return {};
}

Status NodeManager::apply_fields(PartitionConf &conf, const PartitionFields &fields,
                                 bool lenient) const {
    const uint32_t default_time = conf.default_time_min;
    bool nodes_given = false, default_time_given = false;
    try {
        for (const auto &[key, value] : fields) {
            if (!set_partition_key(conf, "partition " + conf.name, key, value))
                return invalid("Update of this parameter is not supported: " + key + "=" + value);
            nodes_given = nodes_given || ascii_lower(key) == "nodes";
            default_time_given = default_time_given || ascii_lower(key) == "defaulttime";
        }
    } catch (const ParseError &e) {
        return invalid(e.what());
    }
    // As Slurm's controller does: a DefaultTime above MaxTime is not taken, the rest is (a record
    // holds what was taken, or slurm.conf's, which may have one).
    if (!lenient && default_time_given && conf.default_time_min > conf.max_time_min) {
        spdlog::info("partition {}: DefaultTime would exceed MaxTime; not changed", conf.name);
        conf.default_time_min = default_time;
    }
    return nodes_given ? resolve_partition_nodes(conf, lenient) : Status{};
}

void NodeManager::save(const PartitionConf &conf) {
    // Nodes by name, as they are now: slurm.conf's expression may name node sets, which only
    // its parser knows. ALL stays ALL, so that nodes added to slurm.conf join it.
    PartitionConf stored = conf;
    if (ascii_lower(conf.nodes_expr) != "all") {
        std::vector<std::string> names;
        for (uint32_t i : conf.nodes)
            if (i < nodes_.size()) names.push_back(nodes_[i].conf->name);
        stored.nodes_expr = hostlist_compress(names);
    }
    auto value = encode(kSet, partition_settings(stored));
    ctx_.commit.txn().put(state::Table::Meta, state::as_bytes(record_key(conf.name)),
                          {value.data(), value.size()});
}

void NodeManager::place(Partition p) {
    auto it = std::find_if(parts_.begin(), parts_.end(),
                           [&](const Partition &q) { return q.conf->name == p.conf->name; });
    if (it != parts_.end())
        *it = std::move(p);
    else
        parts_.push_back(std::move(p));
}

void NodeManager::install(Partition p) {
    // Slurm has one default partition: the one that takes the mark takes it off the others.
    if (p.conf->is_default)
        for (auto &other : parts_)
            if (other.conf->is_default && other.conf->name != p.conf->name) {
                other.conf->is_default = false;
                save(*other.conf);
            }
    save(*p.conf);
    place(std::move(p));
}

Status NodeManager::create_partition(const std::string &name, const PartitionFields &fields) {
    // Slurm refuses a name it has (ESLURM_INVALID_PARTITION_NAME) and no name; "DEFAULT" names
    // slurm.conf's defaults line, never a partition.
    if (name.empty() || ascii_lower(name) == "default" || partition(name))
        return invalid(kInvalidPartition);
    auto conf = std::make_shared<PartitionConf>();
    conf->name = name;
    if (Status s = apply_fields(*conf, fields, false); !s.ok()) return s;
    install(make_partition(std::move(conf)));
    return {};
}

Status NodeManager::update_partition(const std::string &name, const PartitionFields &fields) {
    const Partition *p = partition(name);
    if (!p) return invalid(kInvalidPartition);
    // A copy takes the changes: a refusal leaves the partition as it was.
    auto conf = std::make_shared<PartitionConf>(*p->conf);
    if (Status s = apply_fields(*conf, fields, false); !s.ok()) return s;
    install(make_partition(std::move(conf)));
    return {};
}

Status NodeManager::delete_partition(const std::string &name) {
    auto it = std::find_if(parts_.begin(), parts_.end(),
                           [&](const Partition &q) { return q.conf->name == name; });
    if (it == parts_.end()) return invalid(kInvalidPartition);
    if (in_use_ && in_use_(name)) return invalid(kInUse);
    // A partition of slurm.conf stays deleted over a restart only with a record that says so.
    const auto key = record_key(name);
    if (ctx_.conf.find_partition(name)) {
        auto value = encode(kDeleted, {});
        ctx_.commit.txn().put(state::Table::Meta, state::as_bytes(key),
                              {value.data(), value.size()});
    } else {
        ctx_.commit.txn().del(state::Table::Meta, state::as_bytes(key));
    }
    if (it->conf->is_default) spdlog::warn("deleting the default partition {}", name);
    parts_.erase(it);
    return {};
}

bool NodeManager::recover_partition(const std::string &name, std::span<const uint8_t> value) {
    flatbuffers::Verifier v(value.data(), value.size());
    if (name.empty() || !v.VerifyBuffer<proto::PartitionUpdateRequest>(nullptr)) return false;
    const auto *r = flatbuffers::GetRoot<proto::PartitionUpdateRequest>(value.data());
    if (proto::str(r->action()) == kDeleted) {
        std::erase_if(parts_, [&](const Partition &p) { return p.conf->name == name; });
        return true;
    }
    auto conf = std::make_shared<PartitionConf>();
    conf->name = name;
    if (Status s = apply_fields(*conf, fields_of(*r), true); !s.ok()) {
        spdlog::error("partition {}: its record does not apply ({}); slurm.conf's line stands",
                      name, s.text());
        return true; // read, and refused with its reason
    }
    place(make_partition(std::move(conf)));
    return true;
}

void NodeManager::recover_partitions() {
    std::size_t bad = 0, read = 0;
    ctx_.store.scan_from(
        state::Table::Meta, state::as_bytes(kPrefix), [&](state::Bytes k, state::Bytes v) {
            std::string_view key(reinterpret_cast<const char *>(k.data()), k.size());
            if (key.substr(0, kPrefix.size()) != kPrefix) return false;
            ++read;
            if (!recover_partition(std::string(key.substr(kPrefix.size())), v)) ++bad;
            return true;
        });
    if (bad) spdlog::error("{} partition record(s) in the state store do not decode; skipped", bad);
    if (read) spdlog::info("{} partition record(s) applied over slurm.conf", read - bad);
    // slurm.conf edited to mark another default than a record does: one keeps the mark.
    bool seen = false;
    for (auto &p : parts_) {
        if (p.conf->is_default && seen) {
            spdlog::warn("partition {}: another partition is the default; Default=NO",
                         p.conf->name);
            p.conf->is_default = false;
        }
        seen = seen || p.conf->is_default;
    }
}

void NodeManager::on_partition_update(const std::shared_ptr<net::Request> &req,
                                      const net::ResponderPtr &resp) {
    const auto *q = req->msg->body_as_PartitionUpdateRequest();
    const std::string action = proto::str(q->action());
    std::string name;
    PartitionFields fields;
    for (auto &[key, value] : fields_of(*q)) {
        if (ascii_lower(key) == "partitionname")
            name = std::move(value);
        else
            fields.emplace_back(std::move(key), std::move(value));
    }
    Status s = action == "create"   ? create_partition(name, fields)
               : action == "update" ? update_partition(name, fields)
               : action == "delete" ? delete_partition(name)
                                    : invalid("unknown partition action '" + action + "'");
    if (!s.ok()) return resp->error(s.code(), s.text());
    spdlog::info("partition {}: {} by uid {}", name, action, req->peer.uid);
    ctx_.events.queue_changed.publish(); // a job may start now, or where it could not
    ctx_.commit.after_commit([resp] { resp->ok(); });
}

} // namespace drover::ctld
