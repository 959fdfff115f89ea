// acct_query.cpp - sacct's filters from the request to the store and on what it emits.
#include "ctld/acct/acct_query.hpp"

#include "common/hostlist.hpp"
#include "plugin/cstr.hpp"

namespace drover::ctld {

namespace {

template <typename T>
std::vector<T> numbers(const flatbuffers::Vector<T> *v) {
    return v ? std::vector<T>(v->begin(), v->end()) : std::vector<T>();
}

std::vector<std::string>
strings(const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>> *v) {
    std::vector<std::string> out;
    if (v)
        for (const auto *s : *v) out.push_back(s->str());
    return out;
}

std::vector<drover_str> views(const std::vector<std::string> &v) {
    std::vector<drover_str> out;
    for (const auto &s : v) out.push_back(plugin::cstr(s));
    return out;
}

} // namespace

AcctFilters acct_filters_from(const proto::AcctQueryRequest &a, const std::string &own_cluster) {
    AcctFilters f;
    f.user_ids = numbers(a.user_ids());
    f.states = numbers(a.states());
    f.accounts = strings(a.accounts());
    f.partitions = strings(a.partitions());
    f.names = strings(a.names());
    f.clusters = strings(a.clusters());
    if (f.clusters.empty() && !a.all_clusters()) f.clusters.push_back(own_cluster);
    f.nodes = strings(a.nodes());
    return f;
}

int acct_node_list_match(const drover_acct_query *q, drover_str node_list) noexcept {
    if (!node_list.len) return 0; // never ran anywhere
    // Called by the store, through its C table: nothing may be thrown back. A node list that is
    // not a hostlist names no node.
    try {
        for (const std::string &name :
             hostlist_expand(std::string_view(node_list.ptr, node_list.len)))
            if (drover_acct_str_in(q->nodes, q->node_count, plugin::cstr(name))) return 1;
    } catch (...) {}
    return 0;
}

AcctFilterArgs::AcctFilterArgs(const AcctFilters &f, drover_acct_query &q)
    : accounts_(views(f.accounts)), partitions_(views(f.partitions)), names_(views(f.names)),
      clusters_(views(f.clusters)), nodes_(views(f.nodes)) {
    q.user_ids = f.user_ids.data();
    q.user_id_count = uint32_t(f.user_ids.size());
    q.states = f.states.data();
    q.state_count = uint32_t(f.states.size());
    q.accounts = accounts_.data();
    q.account_count = uint32_t(accounts_.size());
    q.partitions = partitions_.data();
    q.partition_count = uint32_t(partitions_.size());
    q.names = names_.data();
    q.name_count = uint32_t(names_.size());
    q.clusters = clusters_.data();
    q.cluster_count = uint32_t(clusters_.size());
    q.nodes = nodes_.data();
    q.node_count = uint32_t(nodes_.size());
    q.node_list_match = acct_node_list_match;
}

void AcctFilteredRows::job(const drover_acct_job &j) {
    skipping_ = !store_filters_ && !drover_acct_filters_match(&q_, &j);
    if (!skipping_) rows_.job(j);
}

void AcctFilteredRows::step(const drover_acct_step &s) {
    if (!skipping_) rows_.step(s);
}

} // namespace drover::ctld
