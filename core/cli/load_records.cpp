// load_records.cpp - JobInfo, NodeInfo, PartitionInfo and ReservationInfo requests, with Slurm's
// error lines.
#include "cli/load_records.hpp"

#include "cli/rpc.hpp"

namespace drover::cli {

const proto::JobInfoResponse *load_jobs(net::Reply &reply, const std::vector<uint32_t> &ids,
                                        bool fed_track) {
    flatbuffers::FlatBufferBuilder fbb;
    auto req = proto::CreateJobInfoRequest(fbb, fbb.CreateVector(ids), 0, fed_track);
    return ask_ctld<proto::JobInfoResponse>(reply, fbb, proto::Body::JobInfoRequest, req.Union(),
                                            error_line("slurm_load_jobs error: "));
}

const proto::NodeInfoResponse *load_nodes(net::Reply &reply, const std::vector<std::string> &names,
                                          std::string error_prefix) {
    flatbuffers::FlatBufferBuilder fbb;
    auto req = proto::CreateNodeInfoRequest(fbb, fbb.CreateVectorOfStrings(names));
    return ask_ctld<proto::NodeInfoResponse>(reply, fbb, proto::Body::NodeInfoRequest, req.Union(),
                                             error_line(std::move(error_prefix)));
}

const proto::PartitionInfoResponse *load_partitions(net::Reply &reply, std::string error_prefix) {
    flatbuffers::FlatBufferBuilder fbb;
    auto req = proto::CreatePartitionInfoRequest(fbb);
    return ask_ctld<proto::PartitionInfoResponse>(reply, fbb, proto::Body::PartitionInfoRequest,
                                                  req.Union(), error_line(std::move(error_prefix)));
}

const proto::ReservationInfoResponse *load_reservations(net::Reply &reply, const std::string &name,
                                                        std::string error_prefix) {
    flatbuffers::FlatBufferBuilder fbb;
    auto req =
        proto::CreateReservationInfoRequestDirect(fbb, name.empty() ? nullptr : name.c_str());
    return ask_ctld<proto::ReservationInfoResponse>(reply, fbb, proto::Body::ReservationInfoRequest,
                                                    req.Union(),
                                                    error_line(std::move(error_prefix)));
}

} // namespace drover::cli
