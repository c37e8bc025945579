package io.observatory.mesh.judge;

/**
 * A server's mesh status, in the order a route prefers them when none of its servers is in rotation (best first,
 * marked servers between {@link #NO_DATA} and {@link #BLOCKED}; see {@link MeshJudge}).
 */
public enum MeshStatus {
    /** Nothing against it. In rotation. */
    OK,
    /** No self-report for {@code no-data-after}: silence is not a verdict. In rotation. */
    NO_DATA,
    /** A checker cannot reach it. Out of rotation while its route has another usable server. */
    BLOCKED,
    /** Reliable witnesses of at least {@code quorum} distinct sites cannot reach it. Out of rotation. */
    UNREACHABLE_FROM_SERVERS,
    /** Its latest self-report says a local check fails. Out of rotation. */
    SERVER_UNAVAILABLE
}
