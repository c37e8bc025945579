package io.observatory.mesh.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.ObservatoryConfig;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.hub.MeshHub;
import io.observatory.mesh.hub.MeshLedger.Report;
import io.observatory.mesh.hub.MeshView;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.MeshJudgement;
import io.observatory.mesh.judge.MeshJudgement.RouteServing;
import io.observatory.mesh.judge.MeshJudgement.ServerVerdict;
import io.observatory.mesh.judge.MeshJudgement.WitnessStanding;
import io.observatory.mesh.judge.MeshRules;
import io.observatory.mesh.judge.MeshStatus;
import io.observatory.mesh.protocol.LastProbe;
import io.observatory.mesh.protocol.PathStreak;
import io.observatory.probe.ProbeError;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The mesh page's changes as the panel applies them: the page it holds, with each event's changes applied, is the page
 * the hub shows, through random reports and silences; a single change sends that change, not the fleet; a changed
 * fleet is sent whole.
 */
class MeshPageChangesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int SERVERS = 12;

    @Test
    void ofWhenWitnessesReportAndFallSilentThenThePageWithEachEventAppliedIsTheHubsPage() {
        for (long seed = 1; seed <= 20; seed++) {
            FakeScheduler writer = new FakeScheduler();
            ObservatoryConfig config = Configs.yaml(fleet(SERVERS));
            ObservationUpdater updater = new ObservationUpdater(config, writer, writer.clock());
            MeshHub hub = new MeshHub(config.section(MeshSettings.SECTION), writer, writer.clock(), updater);
            hub.start();
            writer.runDue();
            Random random = new Random(seed);
            Map<String, Long> sequences = new HashMap<>();
            MeshPage shown = MeshPage.of(hub.view(), writer.clock().instant());
            Held held = Held.of(tree(shown));
            int changed = 0;
            int removed = 0;
            int staleFlips = 0;
            for (int step = 0; step < 60; step++) {
                String witness = "w" + (1 + random.nextInt(SERVERS));
                List<PathStreak> paths = new ArrayList<>();
                for (int server = 1; server <= SERVERS; server++) {
                    if (!witness.equals("w" + server) && random.nextInt(4) > 0) {
                        paths.add(path("s" + server, random.nextInt(6) < 4 ? 0 : 1 + random.nextInt(4), random));
                    }
                }
                long sequence = sequences.merge(witness, 1L, Long::sum);
                hub.report(witness, new Report(100, sequence, null, paths), outcome -> {});
                writer.advance(Duration.ofMillis(random.nextInt(2_500)));
                writer.runDue();

                MeshPage next = MeshPage.of(hub.view(), writer.clock().instant());
                MeshPageChanges changes = MeshPageChanges.of(shown, next);
                assertThat(changes)
                        .as("seed %d step %d: the same fleet", seed, step)
                        .isNotNull();
                held = held.applied(tree(changes));
                Held expected = Held.of(tree(next));
                assertThat(held.servers()).as("seed %d step %d", seed, step).isEqualTo(expected.servers());
                assertThat(held.witnesses()).as("seed %d step %d", seed, step).isEqualTo(expected.witnesses());
                assertThat(held.routes()).as("seed %d step %d", seed, step).isEqualTo(expected.routes());
                assertThat(held.captions()).as("seed %d step %d", seed, step).isEqualTo(expected.captions());
                assertThat(held.stale()).as("seed %d step %d", seed, step).isEqualTo(expected.stale());
                assertThat(held.cells()).as("seed %d step %d", seed, step).isEqualTo(expected.cells());
                assertThat(held.matrixCells()).isEqualTo(expected.matrixCells());
                changed += changes.servers().size();
                removed += changes.removedCells().size();
                Set<String> wasStale = Set.copyOf(shown.stale());
                staleFlips += (int) changes.witnesses().stream()
                        .filter(line -> wasStale.contains(line.name())
                                != changes.stale().contains(line.name()))
                        .count();
                shown = next;
            }
            assertThat(changed)
                    .as("seed %d: verdicts changed along the way", seed)
                    .isPositive();
            assertThat(removed).as("seed %d: cells went along the way", seed).isPositive();
            assertThat(staleFlips)
                    .as("seed %d: witnesses fell silent or came back", seed)
                    .isPositive();
        }
    }

    @Test
    void ofWhenOneServerOfAThousandFailsThenTheEventHoldsItsLineAndItsRouteAlone() {
        Instant now = Instant.parse("2026-12-04T12:00:00Z");
        MeshPage before = MeshPage.of(large(1_000, null), now);
        MeshPage after = MeshPage.of(large(1_000, "s500"), now.plusSeconds(1));

        MeshPageChanges changes = MeshPageChanges.of(before, after);

        assertThat(changes).isNotNull();
        assertThat(changes.servers()).extracting(MeshJson.Server::name).containsExactly("s500");
        assertThat(changes.captions()).containsExactly(Map.entry("s500", "server unavailable"));
        assertThat(changes.routes()).extracting(MeshJson.Route::route).containsExactly("r25");
        assertThat(changes.witnesses()).isEmpty();
        int whole = JSON.writeValueAsString(after).length();
        int changed = JSON.writeValueAsString(changes).length();
        assertThat(whole).as("the whole page of 1,000 servers and witnesses").isGreaterThan(300_000);
        assertThat(changed)
                .as("bytes of the change, beside %d of the whole page", whole)
                .isLessThan(1_000);
    }

    @Test
    void ofWhenTheFleetOrTheRulesChangeThenNothingToApplyAndThePageIsSentWhole() {
        Instant now = Instant.parse("2026-12-04T12:00:00Z");
        MeshPage page = MeshPage.of(large(10, null), now);

        assertThat(MeshPageChanges.of(page, MeshPage.of(large(11, null), now)))
                .as("a server came")
                .isNull();
        assertThat(MeshPageChanges.of(MeshPage.of(large(11, null), now), page))
                .as("a server went")
                .isNull();
        MeshView more = large(10, null);
        List<MeshFleet.Server> servers = new ArrayList<>(more.fleet().servers());
        servers.set(0, new MeshFleet.Server("s1", "r0", List.of("main", "backup")));
        MeshView withEntry = new MeshView(
                new MeshFleet(servers, more.fleet().witnesses()),
                more.rules(),
                more.judgement(),
                more.lastReports(),
                more.streaks(),
                more.metrics(),
                more.transitions());
        assertThat(MeshPageChanges.of(page, MeshPage.of(withEntry, now)))
                .as("an entry point came: a column of the matrix")
                .isNull();
        MeshView streak = new MeshView(
                more.fleet(),
                new MeshRules(4, 2, 0, 0.5, Duration.ofSeconds(30)),
                more.judgement(),
                more.lastReports(),
                more.streaks(),
                more.metrics(),
                more.transitions());
        assertThat(MeshPageChanges.of(page, MeshPage.of(streak, now)))
                .as("the streak changed")
                .isNull();
    }

    @Test
    void ofWhenAWitnessFallsSilentThenItComesStaleAndGoesWhenItReportsAgain() {
        Instant now = Instant.parse("2026-12-04T12:00:00Z");
        MeshView view = large(3, null);
        MeshPage fresh = MeshPage.of(view, now);
        MeshPage silent = MeshPage.of(view, now.plusSeconds(31));

        MeshPageChanges stale = MeshPageChanges.of(fresh, silent);
        MeshPageChanges back = MeshPageChanges.of(silent, fresh);

        assertThat(stale).isNotNull();
        assertThat(stale.witnesses()).extracting(MeshJson.Witness::name).containsExactly("w1", "w2", "w3");
        assertThat(stale.stale()).containsExactly("w1", "w2", "w3");
        assertThat(back).isNotNull();
        assertThat(back.witnesses()).extracting(MeshJson.Witness::name).containsExactly("w1", "w2", "w3");
        assertThat(back.stale()).isEmpty();
    }

    /** A hub's fleet of {@code servers} servers, each with its witness, in two routes. */
    private static String fleet(int servers) {
        StringBuilder yaml = new StringBuilder("""
                observatory:
                  mesh:
                    hub:
                      streak: 3
                      quorum: 2
                      report-interval: 1s
                      no-data-after: 3s
                      servers:
                """);
        for (int server = 1; server <= servers; server++) {
            yaml.append("        - { name: s%d, route: %s, entry-points: [ { name: main, protocol: direct } ] }\n"
                    .formatted(server, server % 2 == 0 ? "de" : "nl"));
        }
        yaml.append("      witnesses:\n");
        for (int server = 1; server <= servers; server++) {
            yaml.append("        - { name: w%d, site: site%d, server: s%d, certificate-subject: w%d }\n"
                    .formatted(server, server % 4, server, server));
        }
        return yaml.toString();
    }

    private static PathStreak path(String server, int failures, Random random) {
        return new PathStreak(
                server,
                "main",
                failures,
                failures == 0 ? random.nextInt(5) : 0,
                failures == 0
                        ? new LastProbe(true, null, "", 1_000_000L * (1 + random.nextInt(40)))
                        : new LastProbe(false, ProbeError.Kind.CONNECT_TIMEOUT, "connect timed out", 0));
    }

    /**
     * A judged fleet of {@code size} servers in routes of 20, each with its witness reporting now, all OK but
     * {@code unavailable}, which is out of its route.
     */
    private static MeshView large(int size, @Nullable String unavailable) {
        Instant reported = Instant.parse("2026-12-04T12:00:00Z");
        List<MeshFleet.Server> servers = new ArrayList<>();
        List<MeshFleet.Witness> witnesses = new ArrayList<>();
        List<ServerVerdict> verdicts = new ArrayList<>();
        List<WitnessStanding> standings = new ArrayList<>();
        Map<String, List<String>> routes = new LinkedHashMap<>();
        Map<String, Instant> lastReports = new HashMap<>();
        for (int i = 1; i <= size; i++) {
            String name = "s" + i;
            String route = "r" + (i / 20);
            boolean down = name.equals(unavailable);
            servers.add(new MeshFleet.Server(name, route, List.of("main")));
            witnesses.add(new MeshFleet.Witness("w" + i, "site" + (i % 20), name, false));
            verdicts.add(new ServerVerdict(
                    name,
                    route,
                    down ? MeshStatus.SERVER_UNAVAILABLE : MeshStatus.OK,
                    0,
                    down ? "self-check failed: xray" : "",
                    !down,
                    Map.of()));
            standings.add(new WitnessStanding("w" + i, "site" + (i % 20), false, true, 0, size - 1, ""));
            List<String> serving = routes.computeIfAbsent(route, key -> new ArrayList<>());
            if (!down) {
                serving.add(name);
            }
            lastReports.put("w" + i, reported);
        }
        List<RouteServing> routing = routes.entrySet().stream()
                .map(route -> new RouteServing(route.getKey(), route.getValue(), false))
                .sorted(Comparator.comparing(RouteServing::route))
                .toList();
        return new MeshView(
                new MeshFleet(servers, witnesses),
                new MeshRules(3, 2, 0, 0.5, Duration.ofSeconds(30)),
                new MeshJudgement(verdicts, standings, routing, Set.of()),
                lastReports,
                Map.of(),
                Map.of(),
                Map.of());
    }

    private static JsonNode tree(Object page) {
        return JSON.readTree(JSON.writeValueAsString(page));
    }

    /**
     * What the panel holds (panel.js: hold and apply), from the JSON the stream sends: servers, witnesses, routes and
     * cells by name in the order they came, captions, the stale witnesses and the matrix's size.
     */
    private record Held(
            List<JsonNode> servers,
            List<JsonNode> witnesses,
            List<JsonNode> routes,
            Map<String, String> captions,
            Set<String> stale,
            Map<String, JsonNode> cells,
            int matrixCells) {

        static Held of(JsonNode page) {
            Map<String, String> captions = new HashMap<>();
            page.get("captions")
                    .properties()
                    .forEach(entry ->
                            captions.put(entry.getKey(), entry.getValue().asString()));
            Set<String> stale = new HashSet<>();
            page.get("stale").forEach(name -> stale.add(name.asString()));
            Map<String, JsonNode> cells = new HashMap<>();
            page.get("cells").forEach(cell -> cells.put(key(cell), cell));
            return new Held(
                    list(page.get("servers")),
                    list(page.get("witnesses")),
                    list(page.get("routes")),
                    captions,
                    stale,
                    cells,
                    page.get("matrix_cells").asInt());
        }

        Held applied(JsonNode changes) {
            assertThat(changes.get("changes").asBoolean()).isTrue();
            Map<String, String> captions = new HashMap<>(this.captions);
            changes.get("captions")
                    .properties()
                    .forEach(entry ->
                            captions.put(entry.getKey(), entry.getValue().asString()));
            Set<String> stale = new HashSet<>(this.stale);
            changes.get("witnesses")
                    .forEach(witness -> stale.remove(witness.get("name").asString()));
            changes.get("stale").forEach(name -> stale.add(name.asString()));
            Map<String, JsonNode> cells = new HashMap<>(this.cells);
            changes.get("cells").forEach(cell -> cells.put(key(cell), cell));
            changes.get("removed_cells").forEach(cell -> cells.remove(key(cell)));
            return new Held(
                    replaced(servers, changes.get("servers"), "name"),
                    replaced(witnesses, changes.get("witnesses"), "name"),
                    replaced(routes, changes.get("routes"), "route"),
                    captions,
                    stale,
                    cells,
                    changes.get("matrix_cells").asInt());
        }

        private static List<JsonNode> replaced(List<JsonNode> held, JsonNode changed, String key) {
            Map<String, JsonNode> byName = new LinkedHashMap<>();
            held.forEach(item -> byName.put(item.get(key).asString(), item));
            changed.forEach(item -> {
                assertThat(byName)
                        .as("a changed item the page holds")
                        .containsKey(item.get(key).asString());
                byName.put(item.get(key).asString(), item);
            });
            return List.copyOf(byName.values());
        }

        private static List<JsonNode> list(JsonNode array) {
            List<JsonNode> items = new ArrayList<>();
            array.forEach(items::add);
            return items;
        }

        private static String key(JsonNode cell) {
            return cell.get("witness").asString() + " " + cell.get("tag").asString();
        }
    }
}
