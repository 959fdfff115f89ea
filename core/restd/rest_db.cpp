// rest_db.cpp - the /slurmdb/ paths: jobs from the accounting store, as sacct --json shows them.
#include "restd/rest_ops.hpp"

#include "cli/json_records.hpp"

namespace drover::restd {

// GET /slurmdb/V/jobs (?users=a,b) and /slurmdb/V/job/{id}: every job and step the store holds
// that the client may see.
HttpResponse get_db_jobs(const OpCall &c) {
    try {
        std::vector<uint32_t> ids;
        if (!job_ids_of(c, &ids)) return invalid_job(c, http::status::bad_request);
        flatbuffers::FlatBufferBuilder fbb;
        proto::AcctQueryRequestBuilder b(fbb);
        auto idv = fbb.CreateVector(ids);
        b.add_job_ids(idv);
        auto req = b.Finish();
        net::Reply reply = c.ctld.call(fbb, proto::Body::AcctQueryRequest, req.Union(), c.who);
        const auto *r = reply.as<proto::AcctQueryResponse>();
        auto jobs = records(r->jobs());
        if (!c.arg.empty() && jobs.empty()) return invalid_job(c, http::status::not_found);
        return json_response(cli::acct_jobs_json(jobs, now_s()));
    } catch (const std::exception &e) {
        return failed(e, c, "slurmdb_jobs_get");
    }
}

} // namespace drover::restd
