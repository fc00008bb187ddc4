/*
 * three-peers.pml: what `stagesim check Scenarios/check/three-peers-lossy.yaml` explores,
 * in Promela at the checker's granularity, so that SPIN's "states, stored" can be compared
 * with the checker's "distinct states" (Benchmarks/spin/README.md, run-comparison).
 *
 * The scenario: three identical mobile 1.37.0 participants p1, p2, p3 (client indices 0, 1, 2,
 * sorted by name = participant id) with capabilities publish+subscribe, the strategy
 * {publish: true (audio+video), subscribe: audioVideo} and joinRetry {attemptTimeout: 30 s,
 * window: 30 s}; each one's script is join() then leave(); keepalive off; every link lossy,
 * so the head of every link direction may be dropped. -DPEERS=2 is two-peers-lossy.yaml.
 *
 * One process; every option of its loop is one d_step: one transition with no intermediate
 * state, exactly one Action of World.enabledActions() as the checker applies it:
 *   fire(next host call of client c)          join() / leave()          (script order)
 *   fire(joinAttemptTimeout(n) of client c)   retry on a new connection, or FAILED
 *   fire(head of c's uplink)                  the stage service handles it, with its sends
 *   fire(head of c's downlink)                client c handles it, with its sends
 *   drop(head of either direction)            while the path's drops < DROPS
 * Nothing else is enabled here: no server timers (keepalive off), no reconnect timers (they
 * follow the keepalive watchdog), no partitions, jitter, duplication or reordering
 * (Scenario.forChecking removes them).
 *
 * The state is what the checker's key distinguishes (World+Fingerprint.swift and the other
 * *+Fingerprint.swift files), in small fields:
 *   per client: pending host calls (script position), the pending join timer, connection
 *     state, join attempt number, connection epoch, wantsToPublish (+ the strategy's
 *     streams, [audio, video] once asked), publish state (+ publishedStreams);
 *   per (observer, remote) pair: the RemoteParticipant in the observer's StageView
 *     (present, publishedStreams, announced, requested, subscribeState, addedStreams), the
 *     observer's OpenTok subscriber slot for that remote (phase, announcedLayer set), the
 *     remote's stream in the observer's SessionObserver (never seen / present / retired);
 *     remoteProperties[remote] is present exactly when the slot exists (both are set when
 *     the remote is first announced), so it has no field of its own;
 *   stage service: per client registered, connection epoch, publishing;
 *   network: one FIFO channel per link direction; the drops spent on the path (the
 *     checker's key starts with them).
 *
 * What the Promela leaves out, and why no distinct state is lost by it (each item is
 * constant in this scenario, a function of the fields above, or left out of the checker's
 * key as well):
 *   - absolute time: now, delivery due times, firstAttemptAt, subscriber time stamps
 *     (subscribedAt, connectedAt, lastTime), link busy/lastDue times: not in the checker's
 *     key either. Only timers move the checker's clock, and they fire in due order; the key
 *     holds each pending timer's remaining time (due - now), and so does `jrem`. With
 *     attemptTimeout = window = 30 s the first timeout always FAILS (now >= first + 30 s),
 *     so no behaviour here depends on the clock (see ATTEMPTS below for the case where it does);
 *   - tokens, claims, ParticipantInfo (userId, attributes, capabilities), the key ring, the
 *     strategy, VideoConfiguration, PublisherProperties, simulcast layers, stream kinds and
 *     mute states, OpenTokStream fields, QualityPolicy/QualityFallback, layer preferences,
 *     subscribeToVideo, the subscriber number of each slot (SubscriberSlot.subscriber, 1
 *     until a subscribe after an unsubscribe, which no checker scenario makes): constant here (every publish is [audio, video] unmuted with the
 *     default properties, which the service also holds before a publish; every answer is
 *     audioVideo; no link samples without keepalive);
 *   - Sora frames: a message is its WireMessage case plus one argument (a participant index,
 *     or joinAccepted's snapshot set); on the wire connect = join, offer = joinAccepted,
 *     answer = answer (the client's first frame after an offer; the service ignores it),
 *     x-stagesim-request = publish / subscribe, notify connection.created = participantJoined,
 *     push = publishAccepted, participantPublished/Unpublished/Left, re-offer =
 *     subscribeAccepted, re-answer = reAnswer (the client's first frame after a re-offer);
 *   - envelope epochs: every frame still in flight carries its client's current epoch
 *     (abandonConnection removes older ones, and World.send never sends to a replaced
 *     connection), so the epoch written with a frame is the client's epoch;
 *   - transport sequence numbers: the key writes them relative to the receiver, which with
 *     no duplication or reordering is the position in the FIFO (nothing is ever held);
 *   - a drop changes the world's due times, queue sequence numbers and the envelope's
 *     lostTransmissions, none of which is in the key: here it only spends budget;
 *   - renderer events, the trace, strategy query reports, invariant monitors, lastIgnored
 *     strings: not part of the state (the monitors travel with the checker's node, not its key);
 *   - unsubscribe: the SDK sends it only while the remote still publishes; here the
 *     reconciler targets `none` only once the remote stopped publishing, left, or on the
 *     local leave, so it never goes out (not in the message set);
 *   - publishRejected, joinRejected, ejected, ping/pong, exchange messages: never sent here
 *     (capacity 12, valid tokens, distinct jtis, keepalive off, no exchanges).
 *
 * ATTEMPTS (default 1) is the number of join attempts: the timeout of attempt n < ATTEMPTS
 * retries on a new connection, that of attempt ATTEMPTS fails. The scenario's earlier policy
 * {attemptTimeout: 5 s, window: 30 s} is ATTEMPTS=6 on a client's own timeline, but there the
 * Swift world decides with one global clock that every fired event moves (the 10 s leave()
 * calls, other clients' timeouts), so some paths fail earlier, and since the key leaves time
 * out, the first path to reach a state decides; -DNONDET_WINDOW lets every earlier timeout
 * fail too (an over-approximation of every clock). Neither is exact for that policy.
 *
 * Assertions check what the abstraction relies on: channels never overflow, a remote is
 * announced at most once per observer, at most one join timer is pending per client, the
 * epoch fits its field.
 *
 * -DNO_SUBSCRIBERS forgets the subscriber slots and session streams after every step, to
 * measure how many states that bookkeeping adds (README.md).
 *
 * Build: spin -a [-DDROPS=K] [-DPEERS=2] three-peers.pml && gcc -O2 -DSAFETY -DNOREDUCE -o pan pan.c
 * (add -DBFS and run ./pan -mD for the states within D actions, as `stagesim check --bfs --depth D`)
 */

#ifndef DROPS
#define DROPS 0
#endif
#ifndef ATTEMPTS
#define ATTEMPTS 1
#endif
/* PEERS=2 is the same model with p1 and p2 only (for cross-checking against a two-peer
   scenario where both tools finish); the subject is PEERS=3 */
#ifndef PEERS
#define PEERS 3
#endif

#define N PEERS
#define UPCAP 6
#define DOWNCAP 12

/* LocalParticipant.connectionState */
#define DISCONNECTED 0
#define CONNECTING 1
#define CONNECTED 2
/* LocalParticipant.publishState */
#define NOT_PUBLISHED 0
#define ATTEMPTING_PUBLISH 1
#define PUBLISHED 2
/* RemoteParticipant.subscribeState */
#define NOT_SUBSCRIBED 0
#define ATTEMPTING_SUBSCRIBE 1
#define SUBSCRIBED 2
/* RemoteParticipant.requested: none or audioVideo (the strategy's only answer here) */
#define NONE 0
#define AUDIO_VIDEO 1
/* SubscriberSlot.state.phase; SLOT_NONE: no slot for that publisher */
#define SLOT_NONE 0
#define SLOT_IDLE 1
#define SLOT_SUBSCRIBING 2
#define SLOT_CONNECTED 3
#define SLOT_UNSUBSCRIBED 4
#define SLOT_DESTROYED 5
/* the publisher's stream in the SessionObserver: in `streams`, in `retiredStreamIds` */
#define STREAM_NEVER 0
#define STREAM_PRESENT 1
#define STREAM_RETIRED 2

/* WireMessage cases that occur; a frame is one byte: kind * 16 + argument (a participant
   index, or for joinAccepted the snapshot: 2 bits per other participant, registered and
   publishing, others numbered in index order skipping the receiver) */
#define JOIN 1
#define PUBLISH 2
#define SUBSCRIBE 3
#define UNPUBLISH 4
#define LEAVE 5
#define JOIN_ACCEPTED 6
#define PARTICIPANT_JOINED 7
#define PARTICIPANT_PUBLISHED 8
#define PUBLISH_ACCEPTED 9
#define SUBSCRIBE_ACCEPTED 10
#define PARTICIPANT_UNPUBLISHED 11
#define PARTICIPANT_LEFT 12
#define ANSWER 13
#define RE_ANSWER 14
#define FRAME(kind, arg) ((kind) * 16 + (arg))
/* position of participant j among the others of participant c */
#define OTHER(c, j) ((j) < (c) -> (j) : (j) - 1)

typedef Client {
  unsigned script : 2;   /* 0: join() pending, 1: leave() pending, 2: script done */
  unsigned jtimer : 3;   /* attempt number of the pending joinAttemptTimeout, 0: none */
  unsigned jrem : 1;     /* its remaining time (due - now), in attempt timeouts: 0 or 1 */
  unsigned conn : 2;     /* connectionState */
  unsigned attempt : 3;  /* joinAttempt?.number, 0: nil */
  unsigned epoch : 3;    /* current connection number */
  unsigned wants : 1;    /* wantsToPublish (and streams = [audio, video]) */
  unsigned pub : 2       /* publishState (publishedStreams = [audio, video] unless NOT_PUBLISHED) */
};

typedef Remote {         /* observer o's view of remote x, at o * N + x */
  unsigned present : 1;  /* x is in o's StageView.remotes */
  unsigned pub : 1;      /* its publishedStreams = [audio, video] (else []) */
  unsigned ann : 1;      /* announced */
  unsigned req : 1;      /* requested */
  unsigned sub : 2;      /* subscribeState */
  unsigned added : 1;    /* addedStreams = [audio, video] (else []) */
  unsigned slot : 3;     /* o's subscriber slot for x: phase */
  unsigned layer : 1;    /* the slot's announcedLayer is set (media started once) */
  unsigned sess : 2      /* x's stream in o's session */
};

typedef Registered {     /* StageServer.participants */
  unsigned present : 1;
  unsigned epoch : 3;
  unsigned pub : 1       /* publishedStreams = [audio, video] (else []) */
};

Client cl[N];
Remote rv[N * N];
Registered srv[N];
byte drops;                             /* transmissions lost on this path */
chan up[N] = [UPCAP] of { byte };       /* client -> service, FIFO */
chan down[N] = [DOWNCAP] of { byte };   /* service -> client, FIFO */

/* scratch variables of one step; every step ends with them zeroed (pan's BFS mode does not
   allow `hidden`), so they never tell two states apart */
byte tk, ta, tx, tp, tj, tb, tn, tsnap, tnot;
#ifndef NO_SUBSCRIBERS
#define CLEAR tk = 0; ta = 0; tx = 0; tp = 0; tj = 0; tb = 0; tn = 0; tsnap = 0; tnot = 0
#else
/* -DNO_SUBSCRIBERS measures what the OpenTok subscriber slots and session streams add: they
   never steer the protocol, so forgetting them after every step leaves the behaviour as it
   is and merges the states that differ only in them */
#define CLEAR \
  tp = 0; \
  do \
  :: tp < N * N -> rv[tp].slot = SLOT_NONE; rv[tp].layer = 0; rv[tp].sess = STREAM_NEVER; tp++ \
  :: else -> break \
  od; \
  tk = 0; ta = 0; tx = 0; tp = 0; tj = 0; tb = 0; tn = 0; tsnap = 0; tnot = 0
#endif

/* ---------------- network (World+Network.swift) ---------------- */

inline clientSend(c, kind, arg) {
  assert(nfull(up[c]));
  up[c]!FRAME(kind, arg)
}

/* World.send: a frame for a connection the client has already replaced goes nowhere */
inline serverSend(c, kind, arg) {
  if
  :: srv[c].epoch == cl[c].epoch -> assert(nfull(down[c])); down[c]!FRAME(kind, arg)
  :: else -> skip
  fi
}

/* World.abandonConnection: what is in flight on the old connection is gone, both ways */
inline abandon(c) {
  do
  :: nempty(up[c]) -> up[c]?tk
  :: empty(up[c]) -> break
  od;
  do
  :: nempty(down[c]) -> down[c]?tk
  :: empty(down[c]) -> break
  od;
  tk = 0
}

/* World.closeConnection (SIG-6: a frame never outlives its connection): the service closes
   the connection it holds for client c, and every frame still in flight on it dies, both
   ways. Frames in flight always carry the client's current epoch (see abandon), so only
   closing that connection empties the channels. */
inline closeConnection(c) {
  if
  :: srv[c].epoch == cl[c].epoch -> abandon(c)
  :: else -> skip
  fi
}

/* ---------------- stage service (StageServer.swift) ---------------- */

/* snapshots(except: c) */
inline snapshot(c) {
  tsnap = 0;
  tj = 0;
  do
  :: tj < N ->
     if
     :: tj != c && srv[tj].present ->
        tsnap = tsnap | (1 << (2 * OTHER(c, tj))) | (srv[tj].pub << (2 * OTHER(c, tj) + 1))
     :: else -> skip
     fi;
     tj++
  :: else -> break
  od
}

/* to every other registered participant, on the connection the service knows */
inline broadcast(c, kind, arg) {
  tb = 0;
  do
  :: tb < N ->
     if
     :: tb != c && srv[tb].present -> serverSend(tb, kind, arg)
     :: else -> skip
     fi;
     tb++
  :: else -> break
  od
}

/* the head of client c's uplink reaches the service; it carries cl[c].epoch */
inline serverReceive(c) {
  up[c]?tk;
  ta = tk % 16;
  tk = tk / 16;
  if
  :: tk == JOIN ->
     snapshot(c);
     if
     :: srv[c].present -> /* a retried join: the participant moves to the new connection (the
                              old one closes, but its frames were abandoned already) */
        srv[c].epoch = cl[c].epoch;
        serverSend(c, JOIN_ACCEPTED, tsnap)
     :: else ->          /* admitted: joinAccepted to it, participantJoined to the others */
        srv[c].present = 1; srv[c].epoch = cl[c].epoch; srv[c].pub = 0;
        serverSend(c, JOIN_ACCEPTED, tsnap);
        broadcast(c, PARTICIPANT_JOINED, c)
     fi
  :: tk == LEAVE ->      /* honoured from any connection; closes the one the service holds */
     if
     :: srv[c].present ->
        closeConnection(c);
        srv[c].present = 0; srv[c].epoch = 0; srv[c].pub = 0;
        broadcast(c, PARTICIPANT_LEFT, c)
     :: else -> skip
     fi
  :: else ->
     if
     :: srv[c].present && srv[c].epoch != cl[c].epoch -> skip  /* accepts(): an older connection */
     :: else ->
        if
        :: tk == PUBLISH ->
           if
           :: srv[c].present ->
              srv[c].pub = 1;
              serverSend(c, PUBLISH_ACCEPTED, 0);
              broadcast(c, PARTICIPANT_PUBLISHED, c)
           :: else -> skip
           fi
        :: tk == SUBSCRIBE ->
           if
           :: srv[c].present && srv[ta].present && srv[ta].pub -> serverSend(c, SUBSCRIBE_ACCEPTED, ta)
           :: else -> skip
           fi
        :: tk == UNPUBLISH ->
           if
           :: srv[c].present && srv[c].pub ->
              srv[c].pub = 0;
              broadcast(c, PARTICIPANT_UNPUBLISHED, c)
           :: else -> skip
           fi
        :: tk == ANSWER || tk == RE_ANSWER -> skip
        fi
     fi
  fi
}

/* ---------------- clients (Client*.swift, Reconciler.swift, SubscriberState) ---------------- */

/* remoteJoined: StageView.upsert of a fresh RemoteParticipant (answer audioVideo) */
inline freshRemote(p) {
  rv[p].present = 1; rv[p].pub = 0; rv[p].ann = 0; rv[p].req = NONE; rv[p].sub = NOT_SUBSCRIBED; rv[p].added = 0
}

inline removeRemote(p) {
  rv[p].present = 0; rv[p].pub = 0; rv[p].ann = 0; rv[p].req = NONE; rv[p].sub = NOT_SUBSCRIBED; rv[p].added = 0
}

/* followSubscribers on participantDidLeave(x): streamLeft */
inline streamLeft(p) {
  if
  :: rv[p].slot != SLOT_NONE ->
     if
     :: rv[p].sess == STREAM_PRESENT -> rv[p].sess = STREAM_RETIRED
     :: else -> skip
     fi;
     if
     :: rv[p].slot == SLOT_SUBSCRIBING || rv[p].slot == SLOT_CONNECTED -> rv[p].slot = SLOT_DESTROYED
     :: else -> skip
     fi
  :: else -> skip
  fi
}

/* Reconciler.remoteStoppedPublishing and the subscriber events it causes. Its unsubscribe
   command sends nothing: the remote no longer publishes (or is gone from the view). */
inline stoppedPublishing(p) {
  if
  :: rv[p].present ->
     rv[p].pub = 0;
     tnot = 0;
     if
     :: rv[p].req != NONE ->
        rv[p].added = 0; rv[p].req = NONE;
        if
        :: rv[p].sub != NOT_SUBSCRIBED -> rv[p].sub = NOT_SUBSCRIBED; tnot = 1
        :: else -> skip
        fi
     :: else -> skip
     fi;
     if
     :: rv[p].ann -> rv[p].ann = 0; streamLeft(p)   /* its notSubscribed is skipped: it leaves */
     :: else ->
        if
        :: tnot && (rv[p].slot == SLOT_SUBSCRIBING || rv[p].slot == SLOT_CONNECTED) -> rv[p].slot = SLOT_UNSUBSCRIBED
        :: else -> skip
        fi
     fi;
     tnot = 0
  :: else -> skip
  fi
}

/* Client.remotePublished with a snapshot publishing [audio, video] */
inline remotePublished(o, x, p) {
  if
  :: !rv[p].present -> freshRemote(p)
  :: else -> skip
  fi;
  if
  :: rv[p].ann -> /* remoteStreamsChanged, same streams: subscribe again if one is missing */
     rv[p].pub = 1;
     if
     :: rv[p].req != NONE && !rv[p].added && rv[p].sub == SUBSCRIBED -> clientSend(o, SUBSCRIBE, x)
     :: else -> skip
     fi
  :: else ->
     rv[p].pub = 1; rv[p].ann = 1;
     /* participantDidJoin(x) -> announce: a subscriber slot (idle), the stream in the session */
     assert(rv[p].slot == SLOT_NONE && rv[p].sess == STREAM_NEVER);
     rv[p].slot = SLOT_IDLE; rv[p].layer = 0; rv[p].sess = STREAM_PRESENT;
     if  /* reconcileRemote: target audioVideo */
     :: rv[p].req == NONE ->
        clientSend(o, SUBSCRIBE, x);
        rv[p].req = AUDIO_VIDEO; rv[p].sub = ATTEMPTING_SUBSCRIBE;
        if  /* attemptingSubscribe -> subscriber.subscribe */
        :: rv[p].slot == SLOT_IDLE -> rv[p].slot = SLOT_SUBSCRIBING
        :: else -> skip
        fi
     :: else -> skip
     fi
  fi
}

/* Reconciler.subscriptionConfirmed, and mediaStarted on the slot */
inline subscriptionConfirmed(p) {
  if
  :: rv[p].present && rv[p].req != NONE && rv[p].pub ->
     if
     :: rv[p].sub != SUBSCRIBED ->
        rv[p].sub = SUBSCRIBED;
        if
        :: rv[p].slot == SLOT_SUBSCRIBING -> rv[p].slot = SLOT_CONNECTED; rv[p].layer = 1
        :: else -> skip
        fi
     :: else -> skip
     fi;
     rv[p].added = 1
  :: else -> skip
  fi
}

/* Client.joinAccepted: connected; the snapshot's remotes in participant-id order (their
   subscribes go out first), then the strategy's publish */
inline joinAccepted(o, snap) {
  cl[o].conn = CONNECTED; cl[o].attempt = 0;
  cancelJoinTimer(o);
  clientSend(o, ANSWER, 0);  /* answeringOffer: before anything else on the connection */
  tx = 0;
  do
  :: tx < N ->
     if
     :: tx != o && (snap & (1 << (2 * OTHER(o, tx)))) ->
        tp = o * N + tx;
        freshRemote(tp);
        if
        :: (snap & (1 << (2 * OTHER(o, tx) + 1))) -> remotePublished(o, tx, tp)
        :: else -> skip
        fi
     :: else -> skip
     fi;
     tx++
  :: else -> break
  od;
  cl[o].wants = 1;
  if  /* reconcileLocal */
  :: cl[o].pub == NOT_PUBLISHED -> clientSend(o, PUBLISH, 0); cl[o].pub = ATTEMPTING_PUBLISH
  :: else -> skip
  fi
}

/* the head of client o's downlink reaches it (always on its current connection) */
inline clientReceive(o) {
  down[o]?tk;
  ta = tk % 16;
  tk = tk / 16;
  if
  :: tk == JOIN_ACCEPTED ->
     if
     :: cl[o].conn == CONNECTING -> joinAccepted(o, ta)
     :: else -> skip
     fi
  :: else ->
     if
     :: cl[o].conn == CONNECTED ->
        tp = o * N + ta;
        if
        :: tk == PUBLISH_ACCEPTED ->
           if
           :: cl[o].pub == ATTEMPTING_PUBLISH -> cl[o].pub = PUBLISHED
           :: else -> skip
           fi
        :: tk == PARTICIPANT_JOINED -> freshRemote(tp)
        :: tk == PARTICIPANT_PUBLISHED -> remotePublished(o, ta, tp)
        :: tk == PARTICIPANT_UNPUBLISHED -> stoppedPublishing(tp)
        :: tk == PARTICIPANT_LEFT -> stoppedPublishing(tp); removeRemote(tp)
        :: tk == SUBSCRIBE_ACCEPTED ->
           clientSend(o, RE_ANSWER, 0);  /* the re-offer's re-answer, before anything else */
           subscriptionConfirmed(tp)
        fi
     :: else -> skip  /* not connected: ignored */
     fi
  fi
}

/* Client.openConnection: a new epoch, the old connection abandoned, join sent on the new one */
inline openConnection(c) {
  assert(cl[c].epoch < 7);
  cl[c].epoch = cl[c].epoch + 1;
  abandon(c);
  clientSend(c, JOIN, 0)
}

/* join(): attempt 1 of a retry window, with its timeout */
inline hostJoin(c) {
  if
  :: cl[c].conn == DISCONNECTED ->
     cl[c].conn = CONNECTING;
     cl[c].attempt = cl[c].attempt + 1;
     openConnection(c);
     assert(cl[c].jtimer == 0);
     cl[c].jtimer = cl[c].attempt;
     cl[c].jrem = 1
  :: else -> skip
  fi;
  cl[c].script = 1
}

/* leave(): when connected every remote leaves the renderers and the local publish ends
   (unpublish goes out before leave); when connecting only leave goes out */
inline hostLeave(c) {
  if
  :: cl[c].conn == CONNECTED ->
     tx = 0;
     do
     :: tx < N ->
        if
        :: tx != c -> tp = c * N + tx; stoppedPublishing(tp); removeRemote(tp)
        :: else -> skip
        fi;
        tx++
     :: else -> break
     od;
     if
     :: cl[c].pub != NOT_PUBLISHED -> cl[c].pub = NOT_PUBLISHED; clientSend(c, UNPUBLISH, 0)
     :: else -> skip
     fi;
     cl[c].conn = DISCONNECTED; cl[c].attempt = 0;
     clientSend(c, LEAVE, 0)
  :: cl[c].conn == CONNECTING ->
     cl[c].conn = DISCONNECTED; cl[c].attempt = 0;
     cancelJoinTimer(c);
     clientSend(c, LEAVE, 0)
  :: else -> skip
  fi;
  cl[c].script = 2
}

/* the join is answered or abandoned: its timer can no longer do anything, and the world
   cancels it (World.cancelSpentTimers) */
inline cancelJoinTimer(c) {
  cl[c].jtimer = 0;
  cl[c].jrem = 0
}

/* joinAttemptTimeout(n) of the current attempt: the next attempt on a new connection, or
   FAILED (leave goes out on the same connection, after the join still in flight) */
inline retryJoin(c) {
  cl[c].attempt = tn + 1;
  openConnection(c);
  cl[c].jtimer = tn + 1;
  cl[c].jrem = 1
}

/* timers fire in due order (World.enabledActions): c's timer is due first when no other
   pending timer has less time remaining (ties in any order) */
#define NOT_EARLIER(d, c) (cl[d].jtimer == 0 || cl[d].jrem >= cl[c].jrem)
#if PEERS > 2
#define DUE_FIRST(c) (NOT_EARLIER(0, c) && NOT_EARLIER(1, c) && NOT_EARLIER(2, c))
#else
#define DUE_FIRST(c) (NOT_EARLIER(0, c) && NOT_EARLIER(1, c))
#endif

/* c's timer fires: the clock moves to its due time, so every other pending timer has that
   much less time remaining (Timekeeping.timersOnly: only timers move the clock) */
inline advanceClock(c) {
  tb = cl[c].jrem;
  tj = 0;
  do
  :: tj < N ->
     if
     :: tj != c && cl[tj].jtimer != 0 -> assert(cl[tj].jrem >= tb); cl[tj].jrem = cl[tj].jrem - tb
     :: else -> skip
     fi;
     tj++
  :: else -> break
  od;
  cl[c].jrem = 0;
  tb = 0; tj = 0
}

inline failJoin(c) {
  cl[c].attempt = 0; cl[c].conn = DISCONNECTED;
  clientSend(c, LEAVE, 0)
}

#ifdef NONDET_WINDOW
#define WINDOW_FAILS_EARLY(c) \
  :: d_step { cl[c].jtimer != 0 && DUE_FIRST(c) && cl[c].conn == CONNECTING && cl[c].attempt == cl[c].jtimer && cl[c].jtimer < ATTEMPTS -> \
       advanceClock(c); cl[c].jtimer = 0; failJoin(c); CLEAR }
#else
#define WINDOW_FAILS_EARLY(c)
#endif

/* the actions World.enabledActions() offers for client c: its next host call, its timer
   when due first,
   the head of each direction of its link, and losing that head while the budget lasts */
#define CLIENT_ACTIONS(c) \
  :: d_step { cl[c].script == 0 -> hostJoin(c); CLEAR } \
  :: d_step { cl[c].script == 1 -> hostLeave(c); CLEAR } \
  :: d_step { cl[c].jtimer != 0 && DUE_FIRST(c) -> \
       advanceClock(c); \
       tn = cl[c].jtimer; cl[c].jtimer = 0; \
       assert(cl[c].conn == CONNECTING && cl[c].attempt == tn); \
       if \
       :: tn < ATTEMPTS -> retryJoin(c) \
       :: else -> failJoin(c) \
       fi; \
       CLEAR } \
  WINDOW_FAILS_EARLY(c) \
  :: d_step { nempty(up[c]) -> serverReceive(c); CLEAR } \
  :: d_step { nempty(down[c]) -> clientReceive(c); CLEAR } \
  :: d_step { drops < DROPS && nempty(up[c]) -> drops++ } \
  :: d_step { drops < DROPS && nempty(down[c]) -> drops++ }

active proctype world() {
end:
  do
  CLIENT_ACTIONS(0)
  CLIENT_ACTIONS(1)
#if PEERS > 2
  CLIENT_ACTIONS(2)
#endif
  od
}
