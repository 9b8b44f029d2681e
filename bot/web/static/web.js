// Corral's match and replay pages: live updates by server-sent events, the deadline in the
// viewer's local time, and the replay's buttons, slider and arrow keys. Text goes in with
// textContent only (never as HTML).
"use strict";
(function () {
  function byId(id) { return document.getElementById(id); }
  function set(id, text) { var el = byId(id); if (el) { el.textContent = text || ""; } }
  function localTime(el) {
    if (!el) { return; }
    var iso = el.getAttribute("datetime");
    if (!iso) { el.textContent = ""; return; }
    var when = new Date(iso);
    try {
      el.textContent = when.toLocaleString(document.documentElement.lang,
        { dateStyle: "medium", timeStyle: "short" });
    } catch (e) { el.textContent = when.toLocaleString(); }
  }

  // a live stream: EventSource reconnects by itself after a dropped connection, but gives up
  // on an answer that is not a stream (the server is full: 503, or this address has enough
  // live pages open: 429); the page then tries again a minute or so later, at a random moment
  // so that many pages do not come back at once
  function follow(url, name, handle) {
    var source = new EventSource(url);
    source.addEventListener(name, function (ev) { handle(ev, source); });
    source.addEventListener("open", function () { document.body.classList.remove("offline"); });
    source.addEventListener("error", function () {
      document.body.classList.add("offline");
      if (source.readyState === EventSource.CLOSED) {
        window.setTimeout(function () { follow(url, name, handle); },
          30000 + Math.floor(Math.random() * 60000));
      }
    });
  }

  var match = byId("match");
  if (match) {
    localTime(byId("deadline"));
    var apply = function (d) {
      set("title", d.title); set("players", d.players); set("turn", d.turn);
      set("result", d.result); set("waiting", d.waiting); set("deadline-label", d.deadline_label);
      var deadline = byId("deadline");
      if (d.deadline) { deadline.setAttribute("datetime", d.deadline); }
      else { deadline.removeAttribute("datetime"); }
      localTime(deadline);
      var img = byId("board");
      if (d.board) {
        if (img.getAttribute("src") !== d.board) { img.setAttribute("src", d.board); }
        img.alt = d.alt; img.hidden = false;
      }
      // the move list is a live region: the lines it has stay, so that a screen reader
      // says only the new moves (lines that changed, after a takeback, go and come again)
      var list = byId("moves");
      var keep = 0;
      while (keep < list.children.length && keep < d.moves.length
             && list.children[keep].textContent === d.moves[keep]) { keep++; }
      while (list.children.length > keep) { list.removeChild(list.lastChild); }
      for (var i = keep; i < d.moves.length; i++) {
        var item = document.createElement("li"); item.textContent = d.moves[i];
        list.appendChild(item);
      }
      match.setAttribute("data-version", String(d.version));
      match.setAttribute("data-moves", String(d.moves.length));
    };
    // a signed-in player's page holds their move's question and their own view: when the
    // match moves on, the page comes back from the server as it now is
    var player = match.getAttribute("data-player") === "1";
    var shown = match.getAttribute("data-version");
    // a form sent (a move, sign-out) is answered with the page as it then is: no reload
    // meanwhile, which would abort that answer (and its "Played" line)
    var sent = false;
    document.addEventListener("submit", function () { sent = true; });
    var take = function (d, stop) {
      if (player) {  // (its board may be the player's own view: the stream's is the public)
        if (String(d.version) !== shown) {
          stop();
          if (!sent) { window.location.reload(); }
        } else {  // the page is current: it says so as a spectator's does
          match.setAttribute("data-moves", String(d.moves.length));
        }
        return;
      }
      apply(d);
      if (d.status === "finished" || d.status === "aborted") {  // the match just ended
        stop();
        document.body.classList.remove("offline");
        set("live", match.getAttribute("data-over"));
      }
    };
    // EventSource reconnects by itself; each (re)connection begins with the match as it is
    // a finished match's page has nothing to follow: no stream (data-live is empty)
    var url = match.getAttribute("data-live");
    if (url) {
      follow(url, "state", function (ev, source) {
        take(JSON.parse(ev.data), function () { source.close(); });
      });
    }
    // inside Discord (an Activity) the same events come over a WebSocket, which Discord's
    // proxy carries; a closed socket is opened again a few seconds later
    var socketUrl = match.getAttribute("data-socket");
    if (socketUrl) {
      var open = function () {
        var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
        var socket = new WebSocket(scheme + window.location.host + socketUrl);
        var stopped = false;
        socket.addEventListener("open", function () {
          document.body.classList.remove("offline");
        });
        socket.addEventListener("message", function (ev) {
          take(JSON.parse(ev.data), function () { stopped = true; socket.close(); });
        });
        socket.addEventListener("close", function () {
          if (stopped) { return; }
          document.body.classList.add("offline");
          window.setTimeout(open, 3000 + Math.floor(Math.random() * 5000));
        });
      };
      open();
    }
  }

  // a tournament's page reloads itself when the tournament moves (a round paired, a match
  // ended): its stream sends the version now and at each change
  var tournament = byId("tournament");
  if (tournament) {
    var seen = tournament.getAttribute("data-version");
    follow(tournament.getAttribute("data-live"), "version", function (ev, source) {
      if (ev.data !== seen) { source.close(); window.location.reload(); }
    });
  }

  var replay = byId("replayer");
  if (replay) {
    var total = parseInt(replay.getAttribute("data-total"), 10);
    var frames = replay.getAttribute("data-frames");
    var template = replay.getAttribute("data-position");
    var steps = byId("steps").children;
    var frame = byId("frame");
    var slider = byId("slider");
    var ply = 0;  // a replay starts from the beginning
    var show = function (n) {
      ply = Math.max(0, Math.min(total, n));
      if (frame) {
        frame.setAttribute("src", frames.replace("{ply}", String(ply)));
        frame.alt = ply === 0 ? replay.getAttribute("data-start-alt")
          : steps[ply - 1].getAttribute("data-alt");
      }
      slider.value = String(ply);
      var said = template.replace("{ply}", String(ply)).replace("{total}", String(total));
      set("position", said);
      slider.setAttribute("aria-valuetext", said);  // a screen reader says the position
      for (var i = 0; i < steps.length; i++) {
        if (i === ply - 1) { steps[i].setAttribute("aria-current", "step"); }
        else { steps[i].removeAttribute("aria-current"); }
      }
      replay.setAttribute("data-ply", String(ply));
    };
    byId("first").addEventListener("click", function () { show(0); });
    byId("prev").addEventListener("click", function () { show(ply - 1); });
    byId("next").addEventListener("click", function () { show(ply + 1); });
    byId("last").addEventListener("click", function () { show(total); });
    slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
    document.addEventListener("keydown", function (ev) {
      if (ev.target === slider || ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
      var to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: total }[ev.key];
      if (to !== undefined) { ev.preventDefault(); show(to); }
    });
    replay.setAttribute("data-ply", String(ply));
  }
})();
