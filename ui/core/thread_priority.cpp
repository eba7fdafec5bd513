#include "ui/core/thread_priority.h"

#ifdef __linux__
#include <cerrno>
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace skynnet::ui {

void lowerCurrentThreadPriority() {
#ifdef __linux__
    // On Linux a nice value belongs to a thread (its id), not to the whole process.
    const id_t thread = id_t(gettid());
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, thread);
    if (current == -1 && errno != 0) return;
    setpriority(PRIO_PROCESS, thread, current + 5 > 19 ? 19 : current + 5);  // best effort
#endif
}

}  // namespace skynnet::ui
