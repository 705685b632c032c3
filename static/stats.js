// The statistics page's charts: each <canvas class="chart"> carries its labels and values as JSON in
// data attributes (no inline script); Chart.js (static/vendor/chartjs) draws them as horizontal bars.
(function () {
  "use strict";
  if (typeof Chart === "undefined") return;          // the tables below each chart say the same
  var ink = getComputedStyle(document.body).color || "#222";
  document.querySelectorAll("canvas.chart").forEach(function (canvas) {
    var labels = JSON.parse(canvas.getAttribute("data-labels") || "[]");
    var values = JSON.parse(canvas.getAttribute("data-values") || "[]");
    if (!labels.length) { canvas.hidden = true; return; }
    var unit = canvas.getAttribute("data-unit") || "";
    canvas.parentNode.style.height = Math.max(120, 28 * labels.length + 40) + "px";
    new Chart(canvas, {
      type: "bar",
      data: { labels: labels, datasets: [{ data: values, backgroundColor: "#6b63a8" }] },
      options: {
        indexAxis: "y", animation: false, responsive: true, maintainAspectRatio: false,
        plugins: { legend: { display: false },
                   tooltip: { callbacks: { label: function (c) { return c.formattedValue + " " + unit; } } } },
        scales: { x: { beginAtZero: true, ticks: { color: ink } }, y: { ticks: { color: ink } } }
      }
    });
  });
})();
