package io.observatory.mesh.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.observatory.api.UnreadAnswers;
import io.observatory.config.ObservatoryConfig;
import io.observatory.mesh.api.v1.EntryPointStatus;
import io.observatory.mesh.api.v1.GetMeshResponse;
import io.observatory.mesh.api.v1.RouteStatus;
import io.observatory.mesh.api.v1.ServerStatus;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.hub.MeshHub;
import io.observatory.mesh.hub.MeshView;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import io.observatory.testing.FakeServerCall;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The open WatchMesh streams under the bound of answers their clients have not read. */
class MeshWatchersTest {

    private static final String FLEET = """
            observatory.mesh:
              hub:
                servers:
                  - { name: s1, route: de, entry-points: [ { name: main, protocol: direct } ] }
                  - { name: s2, route: de, entry-points: [ { name: main, protocol: direct } ] }
                witnesses:
                  - { name: w1, site: de, server: s1, certificate-subject: w1 }
                  - { name: w2, site: nl, server: s2, certificate-subject: w2 }
            """;

    private final FakeScheduler writer = new FakeScheduler();
    private final ObservatoryConfig config = Configs.yaml(FLEET);
    private final ObservationUpdater updater = new ObservationUpdater(config, writer, writer.clock());
    private final MeshHub hub = new MeshHub(config.section(MeshSettings.SECTION), writer, writer.clock(), updater);
    private final UnreadAnswers budget = new UnreadAnswers(1);
    private final List<MeshWatchers> opened = new ArrayList<>();
    private final MeshWatchers watchers = watchers(budget);

    private MeshWatchers watchers(UnreadAnswers bound) {
        MeshWatchers made = new MeshWatchers(updater.store(), bound);
        opened.add(made);
        return made;
    }

    @AfterEach
    void stop() throws InterruptedException {
        for (MeshWatchers each : opened) {
            each.destroy();
        }
    }

    @Test
    void watchWhenClientsThatReadNothingHoldTheBudgetThenANewStreamIsRefusedUntilTheyRead() {
        assertThat(budget.tryHold(2))
                .as("another call's answer, not read by its client")
                .isTrue();
        FakeServerCall<GetMeshResponse> refused = new FakeServerCall<>();

        watchers.watch(refused, false);
        writer.runDue();

        await().until(() -> refused.error() != null);
        assertThat(refused.error().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(refused.error().getDescription())
                .startsWith("the server holds answers its clients have not read yet, and this stream's first view")
                .endsWith(" would exceed the budget of 1 bytes (expected: a retry after a moment)");
        assertThat(refused.messages()).isEmpty();

        budget.release(2);
        FakeServerCall<GetMeshResponse> served = new FakeServerCall<>();
        served.notReadyAfterEachMessage();
        watchers.watch(served, false);
        writer.runDue();

        await().until(() -> served.messages().size() == 1);
        assertThat(served.error()).isNull();
        assertThat(budget.unreadBytes())
                .as("its view, until its transport is ready again")
                .isEqualTo(served.messages().get(0).getSerializedSize());
    }

    /** Starts the hub and lets it judge once: a view of the fleet's two servers, no longer the empty one. */
    private MeshView judged() {
        hub.start();
        writer.advance(MeshHub.JUDGE_INTERVAL);
        return hub.view();
    }

    /** The size of a stream's first message of {@code view} with the matrix: the whole view, version 1. */
    private static long firstMessageSize(MeshView view) {
        return MeshProtos.view(view).toBuilder().setVersion(1).build().getSerializedSize();
    }

    /** Opens {@code call}'s stream and waits until its first view was sent. */
    private void watchUntilTheFirstView(MeshWatchers reading, FakeServerCall<GetMeshResponse> call) {
        reading.watch(call, true);
        writer.runDue();
        await().until(() -> call.messages().size() == 1);
    }

    @Test
    void watchWhenTheFleetGrowsAndShrinksThenTheWholeViewFirstAndThenOnlyWhatChangedEachNamingItsBase() {
        judged();
        FakeServerCall<GetMeshResponse> call = new FakeServerCall<>();
        watchers(new UnreadAnswers(1 << 20)).watch(call, false);
        writer.runDue();
        await().until(() -> call.messages().size() == 1);
        GetMeshResponse whole = call.messages().get(0);
        assertThat(whole.getServersList()).extracting(ServerStatus::getName).containsExactly("s1", "s2");
        assertThat(whole.getWitnessesCount()).isEqualTo(2);
        assertThat(whole.getPathsList()).as("no matrix unless asked for").isEmpty();
        assertThat(whole.getVersion()).isEqualTo(1);
        assertThat(whole.getBaseVersion()).as("the whole view").isZero();

        ObservatoryConfig grown = Configs.yaml(FLEET.replace(
                "    witnesses:",
                "      - { name: s3, route: nl, entry-points: [ { name: main, protocol: direct } ] }\n    witnesses:"));
        writer.execute(() -> hub.reconfigure(grown));
        writer.runDue();
        await().until(() -> call.messages().size() == 2);
        GetMeshResponse added = call.messages().get(1);
        assertThat(added.getServersList()).extracting(ServerStatus::getName).containsExactly("s3");
        assertThat(added.getRoutesList()).extracting(RouteStatus::getRoute).containsExactly("nl");
        assertThat(added.getWitnessesList()).as("no standing moved").isEmpty();
        assertThat(added.getVersion()).isEqualTo(2);
        assertThat(added.getBaseVersion()).isEqualTo(1);

        ObservatoryConfig alt = Configs.yaml(FLEET.replace(
                "      - { name: s1, route: de, entry-points: [ { name: main, protocol: direct } ] }",
                "      - { name: s1, route: de, entry-points: [ { name: main, protocol: direct },"
                        + " { name: alt, protocol: direct } ] }"));
        writer.execute(() -> hub.reconfigure(alt));
        writer.runDue();
        await().until(() -> call.messages().size() == 3);
        assertThat(call.messages().get(2).getServersList())
                .as("s1's new entry point, though no verdict changed")
                .singleElement()
                .satisfies(server -> assertThat(server.getEntryPointsList())
                        .extracting(EntryPointStatus::getName)
                        .containsExactly("main", "alt"));
        assertThat(call.messages().get(2).getRemovedServersList())
                .as("s3 left with the new file")
                .containsExactly("s3");

        writer.execute(() -> hub.reconfigure(config));
        writer.runDue();
        await().until(() -> call.messages().size() == 4);
        GetMeshResponse back = call.messages().get(3);
        assertThat(back.getServersList()).extracting(ServerStatus::getName).containsExactly("s1");
        assertThat(back.getBaseVersion()).isEqualTo(3);
        assertThat(call.messages().get(2).getRemovedRoutesList()).containsExactly("nl");
    }

    @Test
    void watchWhenTheClientTakesAViewThenItsBytesGoBackOnTheNextOnReadyEvenWithNoViewPending() {
        long size = firstMessageSize(judged());
        UnreadAnswers roomy = new UnreadAnswers(10 * size);
        FakeServerCall<GetMeshResponse> call = new FakeServerCall<>();
        call.notReadyAfterEachMessage();
        watchUntilTheFirstView(watchers(roomy), call);
        assertThat(roomy.unreadBytes()).isEqualTo(size);

        call.drained();

        await().until(() -> roomy.unreadBytes() == 0);
    }

    @Test
    void watchWhenTheBudgetRefusesALaterViewThenTheStreamEndsRatherThanStayOnAStaleView() {
        long size = firstMessageSize(judged());
        UnreadAnswers tight = new UnreadAnswers(size + 1);
        FakeServerCall<GetMeshResponse> call = new FakeServerCall<>();
        watchUntilTheFirstView(watchers(tight), call);
        assertThat(tight.tryHold(size))
                .as("another call's answer, not read by its client, leaving one byte")
                .isTrue();

        ObservatoryConfig grown = Configs.yaml(FLEET.replace(
                "    witnesses:",
                "      - { name: s3, route: nl, entry-points: [ { name: main, protocol: direct } ] }\n    witnesses:"));
        writer.execute(() -> hub.reconfigure(grown));
        writer.advance(MeshHub.JUDGE_INTERVAL);

        await().until(() -> call.error() != null);
        assertThat(call.error().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(call.error().getDescription()).contains("this stream's next view of ");
        assertThat(call.messages()).hasSize(1);
        assertThat(tight.unreadBytes()).as("the other call's bytes only").isEqualTo(size);
    }

    @Test
    void watchWhenTheClientCancelsThenWhatItsStreamHeldGoesBack() {
        long size = firstMessageSize(judged());
        UnreadAnswers roomy = new UnreadAnswers(10 * size);
        FakeServerCall<GetMeshResponse> call = new FakeServerCall<>();
        call.notReadyAfterEachMessage();
        watchUntilTheFirstView(watchers(roomy), call);

        call.cancelledByClient();

        assertThat(roomy.unreadBytes()).isZero();
    }
}
