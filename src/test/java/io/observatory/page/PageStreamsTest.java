package io.observatory.page;

import static io.observatory.testing.SyntheticStatuses.probed;
import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.ObservatoryConfig;
import io.observatory.health.HealthState;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import io.observatory.testing.NotesPart;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.codec.ServerSentEvent;
import reactor.test.subscriber.TestSubscriber;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The live streams on fake time, the writer and the page's thread being one fake scheduler: a real updater publishes,
 * and subscribers that request by hand stand for connections that read or do not.
 */
class PageStreamsTest {

    private static final Duration STALL_LIMIT = Duration.ofSeconds(10);

    private final NotesPart notes = new NotesPart();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final FakeScheduler time = new FakeScheduler();
    private final List<TestSubscriber<ServerSentEvent<String>>> subscribers = new ArrayList<>();
    private ObservationUpdater updater;
    private PageStreams streams;

    @AfterEach
    void cancel() {
        subscribers.forEach(TestSubscriber::cancel);
        time.runDue();
    }

    private void start(ObservatoryConfig config) {
        updater = new ObservationUpdater(config, time, time.clock());
        streams =
                new PageStreams(time, new RttHistory(updater.store()), List.of(notes), time.clock(), JSON, STALL_LIMIT);
        time.runDue();
    }

    private void start(String... tags) {
        start(Configs.direct(List.of(tags)));
    }

    /** Publishes {@code statuses} as changed, the others staying as they are. */
    private void observe(OutboundStatus... statuses) {
        time.execute(() -> updater.changed(List.of(statuses), List.of()));
        time.runDue();
    }

    private OutboundStatus alive(String tag, long rttMillis) {
        return probed(tag, true, rttMillis * 1_000_000, time.clock().instant());
    }

    private OutboundStatus dead(String tag) {
        return probed(tag, false, 1_000_000, time.clock().instant());
    }

    private TestSubscriber<ServerSentEvent<String>> open(PageQuery query, long request) {
        return open(query, request, new FakeConnection());
    }

    private TestSubscriber<ServerSentEvent<String>> open(PageQuery query, long request, FakeConnection connection) {
        TestSubscriber<ServerSentEvent<String>> subscriber = TestSubscriber.<ServerSentEvent<String>>builder()
                .initialRequest(request)
                .build();
        subscribers.add(subscriber);
        streams.open(query, "client 1", connection).subscribe(subscriber);
        time.runDue();
        return subscriber;
    }

    private static PageQuery everything() {
        return new PageQuery("", EnumSet.allOf(HealthState.class), 0, 100);
    }

    private static List<ServerSentEvent<String>> events(
            TestSubscriber<ServerSentEvent<String>> subscriber, String type) {
        return subscriber.getReceivedOnNext().stream()
                .filter(event -> type.equals(event.event()))
                .toList();
    }

    private static JsonNode data(ServerSentEvent<String> event) {
        return JSON.readTree(event.data());
    }

    private static List<String> texts(JsonNode array, String field) {
        List<String> values = new ArrayList<>();
        array.forEach(element -> values.add(
                field == null ? element.asString() : element.get(field).asString()));
        return values;
    }

    /** A connection the test makes writable or not, which says whether it was closed. */
    private static final class FakeConnection implements PageStreams.Connection {

        private boolean writable = true;
        private boolean closed;

        @Override
        public boolean writable() {
            return writable;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void openWhenSubscribedThenTheWholePageFirst() {
        start("a", "b", "c");
        observe(alive("a", 5), dead("b"));

        TestSubscriber<ServerSentEvent<String>> client = open(everything(), Long.MAX_VALUE);

        assertThat(client.getReceivedOnNext()).hasSize(1);
        JsonNode first = data(events(client, "outbounds").get(0));
        assertThat(texts(first.get("window"), null)).containsExactly("a", "b", "c");
        assertThat(texts(first.get("rows"), "tag")).containsExactly("a", "b", "c");
        assertThat(texts(first.get("rows"), "verdict")).containsExactly("healthy", "unhealthy", "unknown");
        assertThat(first.get("counts").get("unhealthy").asInt()).isEqualTo(1);
        assertThat(first.get("now").asLong()).isEqualTo(time.clock().millis());
    }

    @Test
    void streamWhenManyPublicationsFallBetweenTwoLooksThenOneEventWithEachRowInItsLatestState() {
        start("a", "b", "c");
        observe(alive("a", 5), alive("b", 5), alive("c", 5));
        TestSubscriber<ServerSentEvent<String>> client = open(everything(), Long.MAX_VALUE);

        for (int i = 1; i <= 20; i++) {
            observe(i % 2 == 0 ? alive("a", i) : dead("a"));
        }
        observe(dead("b"));
        time.advance(PageStreams.BATCH_INTERVAL);

        List<ServerSentEvent<String>> batches = events(client, "outbounds");
        assertThat(batches).as("the snapshot and one coalesced event").hasSize(2);
        JsonNode batch = data(batches.get(1));
        assertThat(batch.has("window")).as("the page's tags did not move").isFalse();
        assertThat(texts(batch.get("rows"), "tag")).containsExactly("a", "b");
        JsonNode a = batch.get("rows").get(0);
        assertThat(a.get("rtts").size()).isEqualTo(21);
        assertThat(a.get("rtts").get(20).asInt()).isEqualTo(20_000);
        assertThat(batch.get("rows").get(1).get("verdict").asString()).isEqualTo("unhealthy");
    }

    @Test
    void streamWhenTheWriterPublishesFasterThanTheIntervalThenAtMostFourEventsASecond() {
        start("a");
        TestSubscriber<ServerSentEvent<String>> client = open(everything(), Long.MAX_VALUE);

        for (int millis = 0; millis < 1_000; millis += 10) {
            observe(alive("a", millis + 1));
            time.advance(Duration.ofMillis(10));
        }

        assertThat(events(client, "outbounds"))
                .as("the snapshot and one event per 250 ms")
                .hasSize(1 + PageStreams.BATCHES_PER_SECOND);
    }

    @Test
    void streamWhenTheClientAsksForOneEventAtATimeAsItReadsThenStillAtMostFourEventsASecond() {
        start("a");
        TestSubscriber<ServerSentEvent<String>> client = open(everything(), 1);

        for (int millis = 0; millis < 1_000; millis += 10) {
            observe(alive("a", millis + 1));
            client.request(1);
            time.advance(Duration.ofMillis(10));
        }

        assertThat(events(client, "outbounds"))
                .as("each demand between two looks sends nothing: the snapshot and one event per 250 ms")
                .hasSize(1 + PageStreams.BATCHES_PER_SECOND);
    }

    @Test
    void streamWhenAnOutboundOutsideThePageChangesThenOnlyTheCountsAndNothingForNewEvidenceAlone() {
        start("a", "b", "c", "d");
        observe(alive("a", 5), alive("b", 5), alive("c", 5), alive("d", 5));
        TestSubscriber<ServerSentEvent<String>> client =
                open(new PageQuery("", EnumSet.allOf(HealthState.class), 0, 2), Long.MAX_VALUE);

        observe(alive("d", 7));
        time.advance(PageStreams.BATCH_INTERVAL);
        int afterEvidence = events(client, "outbounds").size();
        observe(dead("d"));
        time.advance(PageStreams.BATCH_INTERVAL);

        assertThat(afterEvidence)
                .as("a new RTT of an outbound the page does not show: nothing to send")
                .isEqualTo(1);
        JsonNode counts = data(events(client, "outbounds").get(1));
        assertThat(counts.get("rows").size()).isZero();
        assertThat(counts.get("counts").get("unhealthy").asInt()).isEqualTo(1);
    }

    @Test
    void streamWhenAnOutboundEntersTheFilteredPageThenTheNewTagsAndItsRow() {
        start("a", "b", "c");
        observe(alive("a", 5), dead("b"), alive("c", 5));
        TestSubscriber<ServerSentEvent<String>> client =
                open(new PageQuery("", EnumSet.of(HealthState.UNHEALTHY), 0, 100), Long.MAX_VALUE);

        observe(dead("c"));
        time.advance(PageStreams.BATCH_INTERVAL);

        JsonNode batch = data(events(client, "outbounds").get(1));
        assertThat(texts(batch.get("window"), null)).containsExactly("b", "c");
        assertThat(texts(batch.get("rows"), "tag")).as("b was sent already").containsExactly("c");
        assertThat(batch.get("matching").asInt()).isEqualTo(2);
    }

    @Test
    void streamWhenNothingChangesThenNoEventUntilTheKeepAliveComment() {
        start("a");
        TestSubscriber<ServerSentEvent<String>> client = open(everything(), Long.MAX_VALUE);

        time.advance(PageStreams.KEEP_ALIVE.minusMillis(250));
        int beforeKeepAlive = client.getReceivedOnNext().size();
        time.advance(Duration.ofMillis(250));

        assertThat(beforeKeepAlive).isEqualTo(1);
        assertThat(client.getReceivedOnNext()).hasSize(2);
        assertThat(client.getReceivedOnNext().get(1).comment()).isEqualTo("keep-alive");
        assertThat(client.getReceivedOnNext().get(1).data()).isNull();
    }

    @Test
    void streamWhenTheClientTakesNoEventWhileOneIsDueThenDroppedAfterTheStallLimit() {
        start("a");
        FakeConnection stuckConnection = new FakeConnection();
        TestSubscriber<ServerSentEvent<String>> stuck = open(everything(), 1, stuckConnection);
        TestSubscriber<ServerSentEvent<String>> reading = open(everything(), Long.MAX_VALUE);

        for (int i = 0; i < 50; i++) {
            observe(i % 2 == 0 ? dead("a") : alive("a", i));
            time.advance(STALL_LIMIT.dividedBy(40));
        }

        assertThat(stuck.getReceivedOnNext())
                .as("its one requested event, nothing queued")
                .hasSize(1);
        assertThat(stuckConnection.closed).isTrue();
        assertThat(stuck.isTerminatedComplete()).isTrue();
        assertThat(reading.isTerminated()).isFalse();
        assertThat(streams.openStreams()).isEqualTo(1);
    }

    @Test
    void streamWhenTheConnectionIsNotWritableThenNoEventEvenOnDemandAndDroppedAfterTheStallLimit() {
        start("a");
        FakeConnection full = new FakeConnection();
        TestSubscriber<ServerSentEvent<String>> client = open(everything(), Long.MAX_VALUE, full);
        full.writable = false;

        observe(dead("a"));
        time.advance(STALL_LIMIT.dividedBy(2));
        int whileFull = client.getReceivedOnNext().size();
        full.writable = true;
        time.advance(PageStreams.BATCH_INTERVAL);
        int onceWritable = client.getReceivedOnNext().size();
        full.writable = false;
        observe(alive("a", 3));
        time.advance(STALL_LIMIT.plus(PageStreams.BATCH_INTERVAL));

        assertThat(whileFull).as("only the snapshot").isEqualTo(1);
        assertThat(onceWritable).isEqualTo(2);
        assertThat(full.closed).isTrue();
        assertThat(client.isTerminatedComplete()).isTrue();
    }

    @Test
    void streamWhenTheClientAsksAgainWithinTheStallLimitThenOneEventOfTheLatestState() {
        start("a", "b");
        TestSubscriber<ServerSentEvent<String>> slow = open(everything(), 1);
        observe(dead("a"));
        time.advance(STALL_LIMIT.dividedBy(2));
        observe(dead("b"));
        time.advance(STALL_LIMIT.dividedBy(4));

        slow.request(5);
        time.runDue();

        assertThat(slow.isTerminated()).isFalse();
        assertThat(slow.getReceivedOnNext()).hasSize(2);
        JsonNode latest = data(slow.getReceivedOnNext().get(1));
        assertThat(texts(latest.get("rows"), "verdict")).containsExactly("unhealthy", "unhealthy");
    }

    @Test
    void partWhenItChangesEveryQuarterSecondThenItsEventFirstAndAtMostOnePerItsInterval() {
        start("a");
        TestSubscriber<ServerSentEvent<String>> client = open(everything(), Long.MAX_VALUE);

        for (int i = 1; i <= 8; i++) {
            String text = "note " + i;
            time.execute(() -> updater.publish(NotesPart.PART, text, Map.of()));
            time.advance(Duration.ofMillis(250));
        }

        assertThat(events(client, "notes"))
                .extracting(event -> data(event).get("text").asString())
                .as("the first at the next look, then the part as it is a second later; 2 s of changes make two")
                .containsExactly("note 1", "note 5");
    }

    @Test
    void partWhenItSaysWhatChangedThenTheWholeFirstThenItsChangesSinceWhatEachStreamHoldsAndTheWholeWhenItCannotSay() {
        start("a");
        TestSubscriber<ServerSentEvent<String>> early = open(everything(), Long.MAX_VALUE);
        FakeConnection stuck = new FakeConnection();
        TestSubscriber<ServerSentEvent<String>> behind = open(everything(), Long.MAX_VALUE, stuck);
        time.execute(() -> updater.publish(NotesPart.PART, "mesh", Map.of()));
        time.advance(Duration.ofSeconds(1));
        stuck.writable = false;
        time.execute(() -> updater.publish(NotesPart.PART, "mesh of 2", Map.of()));
        time.advance(Duration.ofSeconds(1));
        TestSubscriber<ServerSentEvent<String>> late = open(everything(), Long.MAX_VALUE);
        time.execute(() -> updater.publish(NotesPart.PART, "mesh of 2 servers", Map.of()));
        time.advance(Duration.ofSeconds(1));
        stuck.writable = true;
        time.advance(PageStreams.BATCH_INTERVAL);
        time.execute(() -> updater.publish(NotesPart.PART, "fleet", Map.of()));
        time.advance(Duration.ofSeconds(1));

        assertThat(events(early, "notes"))
                .extracting(event -> event.data())
                .as("whole, what was appended twice, then whole: the text was replaced")
                .containsExactly(
                        "{\"text\":\"mesh\"}",
                        "{\"appended\":\" of 2\"}",
                        "{\"appended\":\" servers\"}",
                        "{\"text\":\"fleet\"}");
        assertThat(events(late, "notes"))
                .extracting(event -> event.data())
                .as("a stream opened later starts from the whole")
                .containsExactly("{\"text\":\"mesh of 2\"}", "{\"appended\":\" servers\"}", "{\"text\":\"fleet\"}");
        assertThat(events(behind, "notes"))
                .extracting(event -> event.data())
                .as("a stream that could not take ' of 2' gets what was appended since what it holds")
                .containsExactly("{\"text\":\"mesh\"}", "{\"appended\":\" of 2 servers\"}", "{\"text\":\"fleet\"}");
        assertThat(notes.changesBuilt())
                .as("once per pair of texts, whatever the streams: mesh -> of 2, of 2 -> servers, mesh -> servers,"
                        + " servers -> fleet")
                .isEqualTo(4);
    }

    @Test
    void partWhenNothingPublishedThenNoEvent() {
        start("a");
        TestSubscriber<ServerSentEvent<String>> client = open(everything(), Long.MAX_VALUE);

        time.advance(Duration.ofSeconds(3));

        assertThat(events(client, "notes")).isEmpty();
    }

    @Test
    void closeWhenTheContextClosesThenEveryStreamCompletesAndLaterOnesAtOnce() {
        start("a");
        TestSubscriber<ServerSentEvent<String>> client = open(everything(), Long.MAX_VALUE);

        streams.close();
        time.runDue();
        TestSubscriber<ServerSentEvent<String>> late = open(everything(), Long.MAX_VALUE);

        assertThat(client.isTerminatedComplete()).isTrue();
        assertThat(late.isTerminatedComplete()).isTrue();
        assertThat(late.getReceivedOnNext()).isEmpty();
        assertThat(streams.openStreams()).isZero();
        assertThat(time.pendingTasks()).as("no tick left").isZero();
    }
}
