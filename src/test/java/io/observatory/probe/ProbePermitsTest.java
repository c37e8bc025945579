package io.observatory.probe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Sinks;

class ProbePermitsTest {

    private final ProbePermits permits = new ProbePermits(2);
    private final List<Sinks.One<String>> started = new ArrayList<>();
    private final List<String> results = new ArrayList<>();

    private Disposable submit() {
        return permits.withPermit(() -> {
                    Sinks.One<String> sink = Sinks.one();
                    started.add(sink);
                    return sink.asMono();
                })
                .subscribe(results::add);
    }

    @Test
    void withPermitWhenBoundReachedThenFurtherProbesWaitAndNoneIsDropped() {
        for (int i = 0; i < 5; i++) {
            submit();
        }
        assertThat(started).hasSize(2);
        assertThat(permits.waitingCount()).isEqualTo(3);

        started.get(0).tryEmitValue("a");
        assertThat(started).hasSize(3);
        started.get(1).tryEmitValue("b");
        started.get(2).tryEmitValue("c");
        started.get(3).tryEmitValue("d");
        started.get(4).tryEmitValue("e");

        assertThat(results).containsExactly("a", "b", "c", "d", "e");
        assertThat(permits.availablePermits()).isEqualTo(2);
    }

    @Test
    void withPermitWhenWaitingProbeCancelledThenItNeverStartsAndItsTurnPassesOn() {
        submit();
        submit();
        Disposable cancelled = submit();
        submit();

        cancelled.dispose();
        started.get(0).tryEmitValue("a");

        assertThat(started).hasSize(3);
        started.get(1).tryEmitValue("b");
        started.get(2).tryEmitValue("d");
        assertThat(results).containsExactly("a", "b", "d");
        assertThat(permits.availablePermits()).isEqualTo(2);
    }

    @Test
    void withPermitWhenRunningProbeCancelledThenPermitReturns() {
        Disposable running = submit();
        submit();
        submit();

        running.dispose();

        assertThat(started).hasSize(3);
        assertThat(permits.availablePermits()).isZero();
    }
}
