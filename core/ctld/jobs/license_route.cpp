// license_route.cpp - scontrol show licenses: the job manager's answer.
#include "ctld/jobs/job_mgr.hpp"

namespace drover::ctld {

void JobManager::on_licenses(const std::shared_ptr<net::Request> &, const net::ResponderPtr &resp) {
    flatbuffers::FlatBufferBuilder fbb(256);
    std::vector<flatbuffers::Offset<proto::LicenseInfo>> out;
    for (const auto &row : licenses_.rows())
        out.push_back(proto::CreateLicenseInfoDirect(fbb, row.name.c_str(), row.total, row.used));
    auto v = fbb.CreateVector(out);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::LicenseInfoResponse,
                                    proto::CreateLicenseInfoResponse(fbb, v).Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

} // namespace drover::ctld
