/**
 * The console's one script, compiled into the executable (served at
 * /app/assets/console.js). Progressive enhancement only: every page works
 * without it; it adds seeking from the transcript and live status on the list.
 */
export const CONSOLE_JS = `
(function () {
  var audio = document.getElementById("player");
  function seek(t) {
    if (!audio) return;
    audio.currentTime = t;
    var p = audio.play();
    if (p && p.catch) p.catch(function () {});
  }
  document.addEventListener("click", function (e) {
    var el = e.target.closest && e.target.closest("[data-seek]");
    if (!el) return;
    e.preventDefault();
    seek(parseFloat(el.getAttribute("data-seek")));
  });
  if (audio) {
    var lines = Array.prototype.slice.call(document.querySelectorAll("ol.transcript li[data-start]"));
    audio.addEventListener("timeupdate", function () {
      var t = audio.currentTime;
      lines.forEach(function (li) {
        var on = t >= parseFloat(li.getAttribute("data-start")) && t < parseFloat(li.getAttribute("data-end"));
        li.classList.toggle("playing", on);
      });
    });
  }
  // Calls still processing: poll their status and update the row in place.
  var rows = document.querySelectorAll("tr[data-working]");
  if (rows.length > 0) {
    var ids = Array.prototype.map.call(rows, function (r) { return r.getAttribute("data-id"); });
    var timer = setInterval(function () {
      fetch("/app/calls/status?ids=" + ids.join(","), { credentials: "same-origin" }).then(function (r) { return r.ok ? r.json() : null; }).then(function (list) {
        if (!list) return;
        var left = 0;
        list.forEach(function (c) {
          var row = document.querySelector('tr[data-id="' + c.id + '"]');
          if (!row) return;
          row.querySelector("[data-col=status]").textContent = c.processing_status;
          row.querySelector("[data-col=score]").textContent = c.overall_score === null ? "–" : String(c.overall_score);
          row.querySelector("[data-col=outcome]").textContent = c.outcome || "–";
          var a = row.querySelector("[data-col=alerts]");
          a.textContent = c.alert_count > 0 ? c.alert_count + " alert" + (c.alert_count > 1 ? "s" : "") : "";
          if (c.alert_count > 0) a.className = "badge alert";
          if (c.processing_status === "queued" || c.processing_status === "transcribing" || c.processing_status === "analyzing") left++;
        });
        if (left === 0) clearInterval(timer);
      }).catch(function () {});
    }, 3000);
  }
})();
`;
