// acct_query.cpp - sacct's filters from the request to the store and on what it emits.
#include "ctld/acct/acct_query.hpp"

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

AcctFilters acct_filters_from(const proto::AcctQueryRequest &a) {
    AcctFilters f;
    f.user_ids = numbers(a.user_ids());
    f.states = numbers(a.states());
    f.accounts = strings(a.accounts());
    f.partitions = strings(a.partitions());
    f.names = strings(a.names());
    return f;
}

AcctFilterArgs::AcctFilterArgs(const AcctFilters &f, drover_acct_query &q)
    : accounts_(views(f.accounts)), partitions_(views(f.partitions)), names_(views(f.names)) {
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
}

void AcctFilteredRows::job(const drover_acct_job &j) {
    skipping_ = !store_filters_ && !drover_acct_filters_match(&q_, &j);
    if (!skipping_) rows_.job(j);
}

void AcctFilteredRows::step(const drover_acct_step &s) {
    if (!skipping_) rows_.step(s);
}

} // namespace drover::ctld
