package io.observatory.incident.api;

import io.grpc.BindableService;
import io.observatory.api.UnreadAnswers;
import io.observatory.api.auth.ApiGuard;
import io.observatory.api.auth.ServiceAccess;
import io.observatory.api.v1.IncidentServiceGrpc;
import io.observatory.incident.store.IncidentRepository;
import io.observatory.incident.store.IncidentStore;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@code observatory.v1.IncidentService}, unless {@code observatory.incidents.enabled: false}. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "observatory.incidents", name = "enabled", matchIfMissing = true)
public class IncidentApiConfiguration {

    /** How many lists may read the database at once, and how many may wait. */
    static final int READ_THREADS = 2;

    static final int READ_QUEUE = 64;

    /** Database reads of {@code ListIncidents}: {@value #READ_THREADS} threads, {@value #READ_QUEUE} waiting. */
    @Bean(destroyMethod = "shutdownNow")
    ExecutorService incidentReads() {
        AtomicInteger number = new AtomicInteger();
        return new ThreadPoolExecutor(
                READ_THREADS, READ_THREADS, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(READ_QUEUE), runnable -> {
                    Thread thread = new Thread(runnable, "incident-read-" + number.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
    }

    @Bean
    IncidentWatchers incidentWatchers(IncidentStore store, UnreadAnswers budget) {
        return new IncidentWatchers(store, budget);
    }

    /** Both methods are reads: open unless {@code observatory.api.auth.require-for-reads}. */
    @Bean
    BindableService incidentService(
            ApiGuard guard, IncidentRepository repository, ExecutorService incidentReads, IncidentWatchers watchers) {
        return guard.guard(
                new IncidentV1Service(repository, incidentReads, watchers),
                ServiceAccess.reads(
                        IncidentServiceGrpc.getListIncidentsMethod(), IncidentServiceGrpc.getWatchIncidentsMethod()));
    }
}
