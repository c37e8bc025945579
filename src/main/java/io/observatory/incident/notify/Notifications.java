package io.observatory.incident.notify;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.observatory.incident.store.IncidentStore;
import io.observatory.time.ExecutorScheduler;
import io.observatory.time.Ticker;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The channels of {@code observatory.notifications} and their threads: one queue and thread per e-mail or webhook
 * channel, the router on its own, Alertmanager's sender on its own. Started after the store, stopped before it.
 * Metrics per channel: {@code observatory_notifications_sent_total}, {@code _failures_total} (attempts),
 * {@code _dropped_total}, {@code _queued}.
 */
public final class Notifications implements SmartLifecycle, MeterBinder, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Notifications.class);

    private final IncidentStore store;
    private final List<ExecutorScheduler> threads = new ArrayList<>();
    private final List<ChannelQueue> queues = new ArrayList<>();
    private final @Nullable NotificationRouter router;
    private final @Nullable AlertmanagerSender alertmanager;
    private volatile boolean running;

    /**
     * @param settings the checked {@code observatory.notifications}
     * @param store    where the recorded incidents come from
     */
    public Notifications(NotificationSettings settings, IncidentStore store, Clock clock, Ticker ticker) {
        this.store = store;
        List<Channel> channels = new ArrayList<>();
        if (settings.email() != null) {
            channels.add(new EmailChannel(settings.email(), clock));
        }
        settings.webhooks().forEach(webhook -> channels.add(new WebhookChannel(webhook, clock)));
        for (Channel channel : channels) {
            queues.add(new ChannelQueue(channel, thread("notify-" + channel.name(), ticker), settings.queue()));
        }
        this.router =
                queues.isEmpty() ? null : new NotificationRouter(settings, thread("notify-router", ticker), queues);
        this.alertmanager = settings.alertmanager() == null
                ? null
                : new AlertmanagerSender(settings.alertmanager(), thread("notify-alertmanager", ticker), clock);
    }

    private ExecutorScheduler thread(String name, Ticker ticker) {
        ExecutorScheduler thread = new ExecutorScheduler(name, ticker);
        threads.add(thread);
        return thread;
    }

    @Override
    public void start() {
        if (router != null) {
            store.listen(router::accept);
        }
        if (alertmanager != null) {
            alertmanager.start(store);
        }
        if (router != null || alertmanager != null) {
            log.info(
                    "notifications: {}{}",
                    queues.stream().map(ChannelQueue::name).toList(),
                    alertmanager == null ? "" : " and alertmanager");
        }
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        if (router != null) {
            router.stop();
        }
        if (alertmanager != null) {
            alertmanager.stop();
        }
        queues.forEach(ChannelQueue::stop);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Started before the store (a lower phase), so it hears the first events; stopped after it. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 1;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (ChannelQueue queue : queues) {
            FunctionCounter.builder("observatory_notifications_sent", queue, ChannelQueue::sent)
                    .description("Notices delivered")
                    .tag("channel", queue.name())
                    .register(registry);
            FunctionCounter.builder("observatory_notifications_failures", queue, ChannelQueue::failures)
                    .description("Failed attempts to deliver a notice (each retried)")
                    .tag("channel", queue.name())
                    .register(registry);
            FunctionCounter.builder("observatory_notifications_dropped", queue, ChannelQueue::dropped)
                    .description("Notices dropped: the queue was full, or the receiver refused one for good")
                    .tag("channel", queue.name())
                    .register(registry);
            Gauge.builder("observatory_notifications_queued", queue, ChannelQueue::queued)
                    .description("Notices waiting to be delivered")
                    .tag("channel", queue.name())
                    .register(registry);
        }
    }

    /** Stops every thread. */
    @Override
    public void close() {
        threads.forEach(ExecutorScheduler::close);
    }
}
