package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.observatory.api.mesh.v1.GetMeshResponse;
import io.observatory.mesh.MeshHub;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The open WatchMesh streams under the bound of answers their clients have not read. */
class MeshWatchersTest {

    private static final String FLEET = """
            observatory.mesh:
              role: hub
              servers:
                - { name: s1, route: de, entry-points: [ { name: main, protocol: direct } ] }
                - { name: s2, route: de, entry-points: [ { name: main, protocol: direct } ] }
              witnesses:
                - { name: w1, site: de, server: s1, certificate-subject: w1 }
                - { name: w2, site: nl, server: s2, certificate-subject: w2 }
            """;

    private final FakeScheduler writer = new FakeScheduler();
    private final MeshHub hub = new MeshHub(Configs.yaml(FLEET).mesh(), writer, writer.clock(), marks -> { });
    private final UnreadAnswers budget = new UnreadAnswers(1);
    private final MeshWatchers watchers = new MeshWatchers(hub, budget);

    @AfterEach
    void stop() throws InterruptedException {
        watchers.destroy();
    }

    @Test
    void watchWhenClientsThatReadNothingHoldTheBudgetThenANewStreamIsRefusedUntilTheyRead() {
        assertThat(budget.tryHold(2)).as("another call's answer, not read by its client").isTrue();
        FakeServerCall<GetMeshResponse> refused = new FakeServerCall<>();

        watchers.watch(refused);
        writer.runDue();

        await().until(() -> refused.error() != null);
        assertThat(refused.error().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(refused.error().getDescription()).startsWith("the server holds answers its clients have not read"
                + " yet, and this stream's first view of ").endsWith(" bytes would exceed the budget of 1 bytes"
                + " (expected: a retry after a moment)");
        assertThat(refused.messages()).isEmpty();

        budget.release(2);
        FakeServerCall<GetMeshResponse> served = new FakeServerCall<>();
        watchers.watch(served);
        writer.runDue();

        await().until(() -> served.messages().size() == 1);
        assertThat(served.error()).isNull();
        assertThat(budget.unreadBytes()).as("its view, until its transport is ready again")
                .isEqualTo(served.messages().get(0).getSerializedSize());
    }
}
