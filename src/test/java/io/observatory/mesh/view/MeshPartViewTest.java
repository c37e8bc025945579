package io.observatory.mesh.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.ObservatoryConfig;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.hub.MeshHub;
import io.observatory.mesh.hub.MeshView;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The mesh's member of {@code /actuator/observatory}: present on a hub, with upper-case statuses; absent elsewhere. */
class MeshPartViewTest {

    private final FakeScheduler scheduler = new FakeScheduler();
    private final JsonMapper json = JsonMapper.builder().build();
    private final MeshPartView view = new MeshPartView();

    @Test
    void endpointJsonWhenAHubThenServersWitnessesAndRoutesWithUpperCaseStatuses() {
        ObservatoryConfig config = Configs.yaml("""
                observatory:
                  mesh:
                    hub:
                      servers: [ { name: s1, route: eu, entry-points: [ { name: main, protocol: direct } ] } ]
                      witnesses: [ { name: w1, site: de, server: s1, certificate-subject: w1 } ]
                """);
        ObservationUpdater updater = new ObservationUpdater(config, scheduler, scheduler.clock());
        MeshHub hub = new MeshHub(config.section(MeshSettings.SECTION), scheduler, scheduler.clock(), updater);
        hub.start();
        scheduler.runDue();

        assertThat(json.writeValueAsString(
                        view.endpointJson(updater.store().current().part(MeshView.PART))))
                .isEqualTo("{\"servers\":[{\"name\":\"s1\",\"route\":\"eu\","
                        + "\"status\":\"NO_DATA\",\"voters\":0,\"reason\":\"no self-report within 30s\","
                        + "\"in_rotation\":true,\"entry_points\":[{\"name\":\"main\",\"tag\":\"s1/main\","
                        + "\"marks\":[]}]}],\"witnesses\":[{\"name\":\"w1\",\"site\":\"de\",\"server\":\"s1\","
                        + "\"checker\":false,\"status\":\"RELIABLE\",\"share\":0.0,\"neighbours\":0}],"
                        + "\"routes\":[{\"route\":\"eu\",\"servers\":[\"s1\"],\"panic\":false}]}");
    }

    @Test
    void endpointJsonWhenNoFleetThenLeftOut() {
        assertThat(view.endpointJson(MeshView.EMPTY)).isNull();
    }
}
