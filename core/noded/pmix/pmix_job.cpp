// pmix_job.cpp - the step's PMIx job and rank information.
#include "noded/pmix/pmix_job.hpp"

#include <cstdlib>
#include <stdexcept>

namespace drover::noded::pmix {

namespace {

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    std::size_t at = 0;
    for (;;) {
        std::size_t end = s.find(sep, at);
        out.push_back(s.substr(at, end == std::string::npos ? std::string::npos : end - at));
        if (end == std::string::npos) return out;
        at = end + 1;
    }
}

std::string joined(const std::vector<uint32_t> &v) {
    std::string out;
    for (uint32_t r : v) out += (out.empty() ? "" : ",") + std::to_string(r);
    return out;
}

pmix_info_t info_u32(const char *key, uint32_t v) {
    pmix_info_t i;
    PMIX_INFO_LOAD(&i, key, &v, PMIX_UINT32);
    return i;
}
pmix_info_t info_u16(const char *key, uint16_t v) {
    pmix_info_t i;
    PMIX_INFO_LOAD(&i, key, &v, PMIX_UINT16);
    return i;
}
pmix_info_t info_rank(const char *key, pmix_rank_t v) {
    pmix_info_t i;
    PMIX_INFO_LOAD(&i, key, &v, PMIX_PROC_RANK);
    return i;
}
pmix_info_t info_str(const char *key, const std::string &v) {
    pmix_info_t i;
    PMIX_INFO_LOAD(&i, key, v.c_str(), PMIX_STRING);
    return i;
}

// A regex of the library's own making (PMIx_generate_regex, PMIx_generate_ppn).
pmix_info_t info_regex(const char *key, const std::string &input, bool ppn) {
    char *regex = nullptr;
    pmix_status_t rc =
        ppn ? PMIx_generate_ppn(input.c_str(), &regex) : PMIx_generate_regex(input.c_str(), &regex);
    if (rc != PMIX_SUCCESS || !regex)
        throw std::runtime_error(std::string("cannot encode ") + key + ": " +
                                 PMIx_Error_string(rc));
    pmix_info_t i;
    PMIX_INFO_LOAD(&i, key, regex, PMIX_REGEX);
    std::free(regex);
    return i;
}

// One rank's own information, as a PMIX_PROC_DATA array.
pmix_info_t proc_data(const StepLayout &step, uint32_t node, uint32_t local, uint32_t rank) {
    std::vector<pmix_info_t> d{
        info_rank(PMIX_RANK, rank), info_u32(PMIX_APPNUM, 0), info_rank(PMIX_GLOBAL_RANK, rank),
        info_rank(PMIX_APP_RANK, rank),
        // The standard's types: readers ask for exactly these.
        info_u16(PMIX_LOCAL_RANK, uint16_t(local)), info_u16(PMIX_NODE_RANK, uint16_t(local)),
        info_str(PMIX_HOSTNAME, step.nodes[node]), info_u32(PMIX_NODEID, node)};
    pmix_data_array_t array{PMIX_INFO, d.size(), d.data()};
    pmix_info_t i;
    PMIX_INFO_LOAD(&i, PMIX_PROC_DATA, &array, PMIX_DATA_ARRAY);
    for (auto &x : d) PMIX_INFO_DESTRUCT(&x);
    return i;
}

} // namespace

uint32_t StepLayout::size() const {
    uint32_t n = 0;
    for (const auto &r : ranks) n += uint32_t(r.size());
    return n;
}

StepLayout parse_layout(int argc, char **argv) {
    if (argc != 6)
        throw std::runtime_error("usage: drover-pmix NSPACE NODE_INDEX NODES RANKS TMPDIR");
    StepLayout s;
    s.nspace = argv[1];
    s.node_index = uint32_t(std::strtoul(argv[2], nullptr, 10));
    s.nodes = split(argv[3], ',');
    for (const auto &list : split(argv[4], ';')) {
        s.ranks.emplace_back();
        for (const auto &r : split(list, ','))
            if (!r.empty())
                s.ranks.back().push_back(uint32_t(std::strtoul(r.c_str(), nullptr, 10)));
    }
    s.tmpdir = argv[5];
    if (s.nspace.empty() || s.nspace.size() >= PMIX_MAX_NSLEN || s.nodes.size() != s.ranks.size() ||
        s.node_index >= s.nodes.size() || s.local().empty())
        throw std::runtime_error("the step's layout does not hold together");
    return s;
}

std::vector<pmix_info_t> job_info(const StepLayout &step) {
    std::string node_list, ppn;
    for (std::size_t n = 0; n < step.nodes.size(); ++n) {
        node_list += (n ? "," : "") + step.nodes[n];
        ppn += (n ? ";" : "") + joined(step.ranks[n]);
    }
    uint32_t size = step.size(), local = uint32_t(step.local().size());
    std::vector<pmix_info_t> info{info_u32(PMIX_UNIV_SIZE, size),
                                  info_u32(PMIX_JOB_SIZE, size),
                                  info_u32(PMIX_MAX_PROCS, size),
                                  info_u32(PMIX_APP_SIZE, size),
                                  info_str(PMIX_JOBID, step.nspace),
                                  info_u32(PMIX_NUM_NODES, uint32_t(step.nodes.size())),
                                  info_regex(PMIX_NODE_MAP, node_list, false),
                                  info_regex(PMIX_PROC_MAP, ppn, true),
                                  info_u32(PMIX_LOCAL_SIZE, local),
                                  info_u32(PMIX_NODE_SIZE, local),
                                  info_str(PMIX_LOCAL_PEERS, joined(step.local())),
                                  info_rank(PMIX_LOCALLDR, step.local().front()),
                                  info_str(PMIX_HOSTNAME, step.nodes[step.node_index]),
                                  info_u32(PMIX_NODEID, step.node_index),
                                  info_str(PMIX_TMPDIR, step.tmpdir),
                                  info_str(PMIX_NSDIR, step.tmpdir),
                                  info_u32(PMIX_APPNUM, 0),
                                  info_rank(PMIX_APPLDR, 0)};
    for (uint32_t n = 0; n < step.ranks.size(); ++n)
        for (uint32_t k = 0; k < step.ranks[n].size(); ++k)
            info.push_back(proc_data(step, n, k, step.ranks[n][k]));
    return info;
}

} // namespace drover::noded::pmix
