import Dispatch

/// A task executor (SE-0417) over a serial dispatch queue of its own: a task that prefers it
/// (`withTaskExecutorPreference`, `addTask(executorPreference:)`) runs its non-isolated code and
/// the default actors it calls there, not on Swift's cooperative thread pool. Dispatch gives the
/// queue a thread of its own when the pool's threads are all busy, so a saturated pool slows
/// such a task but never stalls it.
///
/// Used for the stations of a provisioning job: each keeps polling its reader and writing its
/// tags whatever else the process runs. Shared by the modules of this package (`package`
/// access), not API.
package final class QueueTaskExecutor: TaskExecutor {
    /// The queue every job runs on.
    package let queue: DispatchQueue

    /// An executor with a new serial queue labelled `label`.
    package init(label: String) {
        queue = DispatchQueue(label: label)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { unownedJob.runSynchronously(on: executor) }
    }

    package func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }
}
