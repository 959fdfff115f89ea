// sacct_fields.hpp - what each of sacct's fields shows (SacctField::kind), shared by the job and
// step lines.
#pragma once

namespace drover::cli {

enum SacctKind : int {
    kUsage,   // per-step figures Drover does not collect: blank
    kAccount, kAllocCpus, kAllocNodes, kAllocTres, kCluster, kComment, kCpuTime, kCpuTimeRaw,
    kDerivedExitCode, kElapsed, kElapsedRaw, kEligible, kEnd, kExitCode, kFlags, kGid, kGroup,
    kJobId, kJobIdRaw, kJobName, kNNodes, kNodeList, kNTasks, kPriority, kPartition, kQos,
    kQosRaw, kReason, kReqCpus, kReqMem, kReqNodes, kReqTres, kReserved, kStart, kState, kSubmit,
    kSuspended, kTimelimit, kTimelimitRaw, kUid, kUser, kWorkDir, kEmpty, kZeroTime,
    // a step's usage (blank on job lines but for the CPU totals)
    kMaxRss, kMaxRssNode, kMaxRssTask, kMaxVmSize, kMaxVmSizeNode, kAveRss, kAveVmSize, kAveCpu,
    kMinCpu, kTotalCpu, kUserCpu, kSystemCpu, kMaxDiskRead, kMaxDiskReadNode, kMaxDiskWrite,
    kMaxDiskWriteNode, kAveDiskRead, kAveDiskWrite, kConsumedEnergy,
};

}  // namespace drover::cli
