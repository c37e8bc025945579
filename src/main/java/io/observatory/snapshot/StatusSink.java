package io.observatory.snapshot;

import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where an observer's statuses go, and the one holder of them: the observer hands on only what changed since its last
 * publication and reads back what it handed on, so no observer keeps a second copy of every outbound's status.
 */
public interface StatusSink {

    /**
     * Takes what changed. Writer only.
     *
     * @param changed the statuses that are new or differ from the last published ones, at most one per tag
     * @param gone    the tags the observer no longer has a status for
     */
    void changed(Collection<OutboundStatus> changed, Collection<String> gone);

    /** The status the sink holds for {@code tag}: the last one handed on, or {@code null}. O(1). */
    @Nullable
    OutboundStatus held(String tag);

    /** Every status the sink holds, in tag order. O(outbounds). */
    List<OutboundStatus> held();
}
