package io.observatory.incident;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.observatory.config.ConfigSection;
import io.observatory.config.ObservatoryConfig;
import io.observatory.incident.history.HistoryKeeper;
import io.observatory.incident.history.IncidentHistory;
import io.observatory.incident.history.IncidentPage;
import io.observatory.incident.notify.NotificationSettings;
import io.observatory.incident.notify.Notifications;
import io.observatory.incident.store.IncidentRepository;
import io.observatory.incident.store.IncidentStore;
import io.observatory.management.PartView;
import io.observatory.snapshot.ConditionSource;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.time.ExecutorScheduler;
import io.observatory.time.Scheduler;
import io.observatory.time.Ticker;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Incidents ({@code observatory.incidents}): the section, always bound; the tracker on the writer, the store on its
 * own thread and their metrics, unless {@code enabled: false}.
 */
@Configuration(proxyBeanMethods = false)
public class IncidentConfiguration {

    /** {@code observatory.incidents}, bound with the rest of the configuration whether incidents are on or off. */
    @Bean
    static ConfigSection<IncidentSettings> incidentConfigSection() {
        return IncidentSettings.SECTION;
    }

    /** {@code observatory.notifications}, bound whether incidents are on or off. */
    @Bean
    static ConfigSection<NotificationSettings> notificationConfigSection() {
        return NotificationSettings.SECTION;
    }

    /** The tracker, the store and the API, unless {@code observatory.incidents.enabled: false}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = "observatory.incidents", name = "enabled", matchIfMissing = true)
    static class Enabled {

        /** The store's thread: no database call ever runs on the writer. */
        @Bean(destroyMethod = "close")
        ExecutorScheduler incidentStoreThread(Ticker ticker) {
            return new ExecutorScheduler("incident-store", ticker);
        }

        @Bean
        IncidentRepository incidentRepository(DataSource dataSource) {
            return new IncidentRepository(dataSource);
        }

        @Bean
        IncidentStore incidentStore(
                ObservatoryConfig config,
                IncidentRepository repository,
                @Qualifier("incidentStoreThread") Scheduler thread,
                Clock clock) {
            IncidentSettings settings = config.section(IncidentSettings.SECTION);
            return new IncidentStore(repository, thread, clock, settings.queue(), settings.retention());
        }

        @Bean
        IncidentTracker incidentTracker(
                ObservatoryConfig config,
                Scheduler writer,
                Clock clock,
                List<ConditionSource<?>> sources,
                IncidentStore store) {
            return new IncidentTracker(
                    writer, clock, config.section(IncidentSettings.SECTION).degraded(), sources, store::offer);
        }

        /**
         * Starts the store (migration, the incidents an earlier run left open) and the tracker's watch of the
         * snapshot after the rest of the service; stops them first.
         */
        @Bean
        SmartLifecycle incidentLifecycle(
                IncidentStore store,
                IncidentTracker tracker,
                HistoryKeeper history,
                ObservationStore observations,
                Scheduler writer) {
            return new SmartLifecycle() {
                private volatile @Nullable Runnable unwatch;

                @Override
                public void start() {
                    history.start();
                    store.start(open -> writer.execute(() -> tracker.restore(open)));
                    unwatch = observations.watch(tracker::start, tracker::update);
                }

                @Override
                public void stop() {
                    Runnable cancel = unwatch;
                    unwatch = null;
                    if (cancel != null) {
                        cancel.run();
                    }
                    store.stop();
                }

                @Override
                public boolean isRunning() {
                    return unwatch != null;
                }
            };
        }

        /** The last 90 days of incidents, read from the database and followed, as the snapshot's part. */
        @Bean
        HistoryKeeper incidentHistory(
                IncidentRepository repository,
                IncidentStore store,
                Scheduler writer,
                ObservationUpdater updater,
                Clock clock) {
            return new HistoryKeeper(repository, store, writer, updater, clock);
        }

        /** The incidents' panel of the status page and member of {@code /actuator/observatory}. */
        @Bean
        PartView<IncidentHistory, Object> incidentPage() {
            return new IncidentPage();
        }

        /** The e-mail, webhook and Alertmanager channels of {@code observatory.notifications}. */
        @Bean(destroyMethod = "close")
        Notifications notifications(ObservatoryConfig config, IncidentStore store, Clock clock, Ticker ticker) {
            return new Notifications(config.section(NotificationSettings.SECTION), store, clock, ticker);
        }

        /**
         * {@code observatory_incidents_open}, {@code _queued}, {@code _dropped_total}, {@code _recorded_total} and
         * {@code _database_up}: one series each.
         */
        @Bean
        MeterBinder incidentMeters(IncidentStore store) {
            return registry -> {
                Gauge.builder("observatory_incidents_open", store, IncidentStore::openCount)
                        .description("Incidents open, as last recorded in the database")
                        .register(registry);
                Gauge.builder("observatory_incidents_queued", store, IncidentStore::queued)
                        .description("Incident transitions waiting to be recorded in the database")
                        .register(registry);
                FunctionCounter.builder("observatory_incidents_dropped", store, IncidentStore::dropped)
                        .description("Incident transitions dropped: the queue was full, or the database refused them")
                        .register(registry);
                FunctionCounter.builder("observatory_incidents_recorded", store, IncidentStore::recorded)
                        .description("Incident transitions recorded in the database")
                        .register(registry);
                Gauge.builder("observatory_incidents_database_up", store, s -> s.reachable() ? 1 : 0)
                        .description("1 when the last attempt reached the incident database, else 0")
                        .register(registry);
            };
        }
    }
}
