package io.observatory.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.probe.PhaseTimer.Mark;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Phase boundaries and the RTT on a fake ticker. */
class PhaseTimerTest {

    private static final URI FIRST = URI.create("http://probe.test/");
    private static final long N = ProbePhases.NOT_MEASURED;

    private final AtomicLong now = new AtomicLong();
    private final PhaseTimer timer = new PhaseTimer(now::get, FIRST, true);
    // The current request's connection, as the pipeline handlers hold it; a redirect's request gets its own.
    private PhaseTimer.ConnectionStamps connection = timer.connection();

    private void at(long nanos, Mark mark) {
        now.set(nanos);
        connection.stamp(mark);
    }

    /** An inbound read that begins at {@code readNanos} and decodes {@code mark} by {@code decodedNanos}. */
    private void readAt(long readNanos, long decodedNanos, Mark mark) {
        now.set(readNanos);
        connection.readStarted();
        now.set(decodedNanos);
        connection.stampAtRead(mark);
    }

    @Test
    void phasesWhenOneConnectionThenSpansBetweenSocketEventsAndTheRttIsTheirSum() {
        at(0, Mark.RESOLVE_STARTED);
        at(5, Mark.RESOLVED);
        at(20, Mark.CONNECT_STARTED);
        at(30, Mark.CONNECTED);
        at(200, Mark.REQUEST_WRITTEN);
        readAt(700, 730, Mark.RESPONSE_HEADERS);

        PhaseTimer.Marks marks = timer.marks();
        assertThat(marks.phases()).isEqualTo(new ProbePhases(5, 10, N, N, 500));
        assertThat(marks.rttNanos(false))
                .as("resolution, connect and request-to-headers; not the hop to connect, the request building "
                        + "or the decoding")
                .isEqualTo(515);
        assertThat(marks.target()).isEqualTo(FIRST);
    }

    @Test
    void rttWhenProxyHandshakeExchangesRecordedThenOnlyTheirTimeOnTheWireCountsNotTheClientsWorkBetweenThem() {
        PhaseTimer proxiedTimer = new PhaseTimer(now::get, URI.create("https://probe.test/"), false);
        PhaseTimer.ConnectionStamps proxied = proxiedTimer.connection();
        now.set(10);
        proxied.stamp(Mark.CONNECT_STARTED);
        now.set(20);
        proxied.stamp(Mark.CONNECTED);
        proxied.handshakeWritten(); // SOCKS5 greeting
        now.set(40);
        proxied.readStarted(); // method reply
        now.set(45);
        proxied.handshakeWritten(); // RFC 1929 credentials, 5 of the client's own work later
        now.set(70);
        proxied.readStarted();
        now.set(90);
        proxied.handshakeWritten(); // CONNECT, 20 later
        now.set(115);
        proxied.readStarted();
        now.set(118);
        proxied.stampAtRead(Mark.PROXY_HANDSHAKE_DONE);
        now.set(315);
        proxied.stamp(Mark.TLS_HANDSHAKE_DONE);
        now.set(350);
        proxied.stamp(Mark.REQUEST_WRITTEN);
        now.set(900);
        proxied.readStarted();
        proxied.stampAtRead(Mark.RESPONSE_HEADERS);

        PhaseTimer.Marks marks = proxied.marks();
        assertThat(marks.phases())
                .as("three exchanges of 20, 25 and 25; the TLS handshake from the read that ended the proxy's")
                .isEqualTo(new ProbePhases(N, 10, 70, 200, 550));
        assertThat(marks.rttNanos(false)).isEqualTo(830);
    }

    @Test
    void rttWhenProxyAndTlsThenHandshakesCountedFromTheReadsThatEndedThem() {
        PhaseTimer proxiedTimer = new PhaseTimer(now::get, URI.create("https://probe.test/"), false);
        PhaseTimer.ConnectionStamps proxied = proxiedTimer.connection();
        now.set(10);
        proxied.stamp(Mark.CONNECT_STARTED);
        now.set(20);
        proxied.stamp(Mark.CONNECTED);
        now.set(100);
        proxied.readStarted();
        now.set(140);
        proxied.stampAtRead(Mark.PROXY_HANDSHAKE_DONE);
        now.set(300);
        proxied.stamp(Mark.TLS_HANDSHAKE_DONE);
        now.set(350);
        proxied.stamp(Mark.REQUEST_WRITTEN);
        now.set(900);
        proxied.readStarted();
        proxied.stampAtRead(Mark.RESPONSE_HEADERS);

        PhaseTimer.Marks marks = proxied.marks();
        assertThat(marks.phases()).isEqualTo(new ProbePhases(N, 10, 80, 200, 550));
        assertThat(marks.rttNanos(false)).isEqualTo(840);
    }

    @Test
    void rttWhenTheWholeBodyIsReadThenItEndsAtTheReadThatEndedTheBody() {
        at(20, Mark.CONNECT_STARTED);
        at(30, Mark.CONNECTED);
        at(40, Mark.REQUEST_WRITTEN);
        readAt(100, 110, Mark.RESPONSE_HEADERS);
        readAt(400, 420, Mark.RESPONSE_END);

        PhaseTimer.Marks marks = timer.marks();
        assertThat(marks.rttNanos(false)).isEqualTo(70);
        assertThat(marks.rttNanos(true))
                .as("the body's 300 ns after the headers are in")
                .isEqualTo(370);
        assertThat(marks.phases().firstByteNanos()).isEqualTo(60);
    }

    @Test
    void rttWhenNoResponseYetThenRefused() {
        at(20, Mark.CONNECT_STARTED);
        at(30, Mark.CONNECTED);
        at(40, Mark.REQUEST_WRITTEN);

        assertThatThrownBy(() -> timer.marks().rttNanos(false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("RESPONSE_HEADERS");
    }

    @Test
    void nextRequestWhenARedirectIsFollowedThenMarksAndTargetAreTheNewRequestsAndASnapshotKeepsTheOld() {
        at(10, Mark.CONNECT_STARTED);
        at(25, Mark.CONNECTED);
        at(30, Mark.REQUEST_WRITTEN);
        readAt(65, 65, Mark.RESPONSE_HEADERS);
        PhaseTimer.Marks before = timer.marks();

        URI next = URI.create("https://other.test/next");
        PhaseTimer.ConnectionStamps first = connection;
        timer.nextRequest(next, true);
        connection = timer.connection();
        first.stamp(Mark.RESPONSE_END);
        assertThat(timer.marks().reached(Mark.RESPONSE_END))
                .as("the first connection's late event is dropped")
                .isFalse();

        assertThat(timer.marks().reached(Mark.CONNECTED)).isFalse();
        assertThat(timer.marks().target()).isEqualTo(next);
        assertThat(timer.marks().secure()).isTrue();
        at(100, Mark.RESOLVE_STARTED);
        at(110, Mark.RESOLVED);
        at(115, Mark.CONNECT_STARTED);
        at(130, Mark.CONNECTED);
        at(160, Mark.TLS_HANDSHAKE_DONE);
        at(170, Mark.REQUEST_WRITTEN);
        readAt(190, 195, Mark.RESPONSE_HEADERS);
        assertThat(timer.marks().phases()).isEqualTo(new ProbePhases(10, 15, N, 30, 20));
        assertThat(timer.marks().rttNanos(false)).isEqualTo(75);
        assertThat(before.reached(Mark.RESPONSE_HEADERS))
                .as("a snapshot never changes")
                .isTrue();
        assertThat(before.target()).isEqualTo(FIRST);
    }
}
