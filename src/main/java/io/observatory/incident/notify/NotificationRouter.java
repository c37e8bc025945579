package io.observatory.incident.notify;

import io.observatory.incident.Incident;
import io.observatory.incident.IncidentEvent;
import io.observatory.incident.notify.Notice.Change;
import io.observatory.incident.notify.Notice.Entry;
import io.observatory.time.Scheduler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the incidents this replica recorded into notices for the e-mail and webhook channels, on its own thread:
 * each event goes to the channels whose routes match it (every channel when there are no routes), waits there
 * {@code group-wait} for others, and leaves as one notice. An incident still open after {@code repeat-interval} is
 * told again, and then every interval, until it resolves; a resolution is told when {@code recovery} is on. Events
 * another replica wrote, and incidents an earlier run left open, are told by nobody here: no duplicate with several
 * replicas, no storm after a restart. Holds one entry per open incident it told (about 100 bytes).
 */
final class NotificationRouter {

    private final NotificationSettings settings;
    private final Scheduler thread;
    private final Map<String, ChannelQueue> channels = new LinkedHashMap<>();
    // The router's thread only.
    private final Map<String, List<Entry>> pending = new HashMap<>();
    private final Map<String, Scheduler.Cancellable> repeats = new HashMap<>();

    /**
     * @param settings the routes, group wait, repeat interval and recovery
     * @param thread   the router's thread, where grouping and repeats run
     * @param queues   every channel's queue
     */
    NotificationRouter(NotificationSettings settings, Scheduler thread, List<ChannelQueue> queues) {
        this.settings = settings;
        this.thread = thread;
        queues.forEach(queue -> channels.put(queue.name(), queue));
    }

    /** Hears a recorded event, on the store thread; hands it to the router's thread. */
    void accept(IncidentEvent event) {
        if (!channels.isEmpty()) {
            thread.execute(() -> route(event));
        }
    }

    /** Any replica's resolution ends this one's repeats; only this replica's events are told. */
    private void route(IncidentEvent event) {
        Incident incident = event.incident();
        Scheduler.Cancellable repeat = repeats.remove(incident.id());
        if (repeat != null) {
            repeat.cancel();
        }
        if (!event.ours()) {
            return;
        }
        if (event.type() == IncidentEvent.Type.OPENED) {
            scheduleRepeat(incident);
        } else if (!settings.recovery()) {
            return;
        }
        add(Entry.of(event));
    }

    private void scheduleRepeat(Incident incident) {
        if (settings.repeatInterval().isZero()) {
            return;
        }
        repeats.put(incident.id(), thread.schedule(settings.repeatInterval(), () -> {
            add(new Entry(Change.STILL_OPEN, incident));
            scheduleRepeat(incident);
        }));
    }

    private void add(Entry entry) {
        for (String channel : channels.keySet()) {
            if (routed(entry.incident(), channel)) {
                List<Entry> group = pending.computeIfAbsent(channel, name -> new ArrayList<>());
                group.add(entry);
                if (group.size() == 1) {
                    thread.schedule(settings.groupWait(), () -> flush(channel));
                }
            }
        }
    }

    private void flush(String channel) {
        List<Entry> group = pending.remove(channel);
        ChannelQueue queue = channels.get(channel);
        if (group != null && !group.isEmpty() && queue != null) {
            queue.offer(new Notice(group));
        }
    }

    /** Whether some route sends {@code incident} to {@code channel}; with no routes, every channel hears it. */
    private boolean routed(Incident incident, String channel) {
        if (settings.routes().isEmpty()) {
            return true;
        }
        for (NotificationRoute route : settings.routes()) {
            if (route.channels().contains(channel)
                    && (route.subjects().isEmpty()
                            || route.subjects().stream().anyMatch(incident.subject()::startsWith))
                    && (route.kinds().isEmpty() || route.kinds().contains(incident.kind()))
                    && (route.severities().isEmpty()
                            || route.severities().contains(incident.severity().label()))) {
                return true;
            }
        }
        return false;
    }

    /** Stops the repeats; notices still grouping are dropped. */
    void stop() {
        thread.execute(() -> {
            repeats.values().forEach(Scheduler.Cancellable::cancel);
            repeats.clear();
            pending.clear();
        });
    }
}
