package io.observatory.status;

import java.util.Collection;

/** Where an observer's statuses go: only what changed since its last publication. Writer only. */
@FunctionalInterface
public interface StatusSink {

    /**
     * @param changed the statuses that are new or differ from the last published ones, at most one per tag
     * @param gone    the tags the observer no longer has a status for
     */
    void changed(Collection<OutboundStatus> changed, Collection<String> gone);
}
