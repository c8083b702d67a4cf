"""What a worker knows of each application's receiver. After a pass in which none of an
application's deliveries succeeded, its other notifications are not taken for a rest that doubles
with each such pass (up to MAX_REST_S); then one of them probes the receiver, and the rest follow
once a probe is acknowledged. A receiver that is down then costs one attempt (one recorded write)
per rest instead of one per notification and retry, so that its outage slows neither the writes
(on SQLite every recorded attempt takes the one write lock) nor the other applications'
deliveries. Each worker learns for itself; a new one starts trusting every receiver.

The pump also moves a resting application's notifications past the rest's end (rest_ends), so that
the query for what is due never walks them: a receiver down for minutes has tens of thousands
waiting, and walking them on every pass made its outage slow the writes that came meanwhile."""
import datetime
import time

MAX_REST_S = 60  # a receiver back up waits at most this long for its notifications


class Receivers:
    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._failed_passes = {}  # client id: passes in a row without an acknowledged delivery
        self._rest_until = {}

    def _rest_left(self):
        """{client id: seconds left of its rest} of the resting applications."""
        now = self._clock()
        return {client_id: until - now for client_id, until in self._rest_until.items() if until > now}

    def resting(self):
        """The client ids whose notifications are not to be taken now."""
        return sorted(self._rest_left())

    def rest_ends(self, now):
        """{client id: when its rest ends} of the resting applications, on the clock of `now`, the
        database's time (a rest is measured on the monotonic clock)."""
        return {client_id: now + datetime.timedelta(seconds=left) for client_id, left in self._rest_left().items()}

    def failing(self):
        """The client ids not acknowledged since their last failed pass (resting or on probation)."""
        return sorted(self._failed_passes)

    def probes(self, taken):
        """(to post, to hand back): of a failing application's notifications, only the first is posted."""
        posted, held, probing = [], [], set()
        for notification in taken:
            client_id = notification.application_id
            if client_id in self._failed_passes:
                if client_id in probing:
                    held.append(notification)
                    continue
                probing.add(client_id)
            posted.append(notification)
        return posted, held

    def note(self, outcomes):
        """A pass's outcomes, (client id, acknowledged) each: an application with none acknowledged
        rests, one with any is trusted again."""
        acknowledged = {}
        for client_id, ok in outcomes:
            acknowledged[client_id] = acknowledged.get(client_id, False) or ok
        for client_id, ok in acknowledged.items():
            if ok:
                self._failed_passes.pop(client_id, None)
                self._rest_until.pop(client_id, None)
            else:
                passes = self._failed_passes.get(client_id, 0) + 1
                self._failed_passes[client_id] = passes
                self._rest_until[client_id] = self._clock() + min(2 ** (passes - 1), MAX_REST_S)
