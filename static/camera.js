/* The desk's camera: read a receipt's QR code with the laptop's or phone's camera (jsQR, vendored in
 * static/vendor/jsqr, so it works offline) and hand it to the search box as a scanner would: the code
 * (or the player link it holds) is typed in and the search form submitted, which checks the player in.
 *
 * Browsers give pages the camera only on HTTPS or on localhost; elsewhere the button explains that.
 */
(function () {
  "use strict";

  var button = document.getElementById("camera-scan");
  var box = document.getElementById("camera");
  var video = document.getElementById("camera-video");
  var status = document.getElementById("camera-status");
  var input = document.getElementById("desk-q");
  var form = document.getElementById("desk-search");
  if (!button || !box || !video || !input || !form || typeof window.jsQR !== "function") return;


  /* The texts this script writes: in the page's language through page.js (tournament.i18n.JS_TEXTS), in
     English when the page has no page.js or no such text (an older copy of the page). */
  var ENGLISH = {
    camera_read_code: "Read a code: checking in…",
    camera_needs_https: "The browser allows the camera only over HTTPS (or on this laptop itself): use a USB scanner, type the code, or open the desk over HTTPS.",
    camera_hold_qr: "Hold a receipt's QR code in front of the camera.",
    camera_failed: "The camera could not be opened (permission refused, or no camera)."
  };
  var tr = window.pageTexts ? window.pageTexts(ENGLISH) : function (key) { return ENGLISH[key] || key; };

  var stream = null, canvas = document.createElement("canvas"), last = "", lastAt = 0;
  button.hidden = false;

  function stop() {
    if (stream) stream.getTracks().forEach(function (t) { t.stop(); });
    stream = null;
    box.hidden = true;
  }

  function look() {
    if (!stream) return;
    if (video.readyState >= 2 && video.videoWidth) {
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      var ctx = canvas.getContext("2d", {willReadFrequently: true});
      ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
      var image = ctx.getImageData(0, 0, canvas.width, canvas.height);
      var found = window.jsQR(image.data, image.width, image.height, {inversionAttempts: "dontInvert"});
      var now = Date.now();
      if (found && found.data && (found.data !== last || now - lastAt > 3000)) {   // the same receipt once
        last = found.data;
        lastAt = now;
        input.value = found.data;
        status.textContent = tr("camera_read_code");
        if (form.requestSubmit) form.requestSubmit(); else form.dispatchEvent(new Event("submit", {cancelable: true}));
      }
    }
    window.setTimeout(look, 200);
  }

  button.addEventListener("click", function () {
    if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      box.hidden = false;
      status.textContent = tr("camera_needs_https");
      return;
    }
    navigator.mediaDevices.getUserMedia({video: {facingMode: "environment"}, audio: false})
      .then(function (s) {
        stream = s;
        video.srcObject = s;
        box.hidden = false;
        status.textContent = tr("camera_hold_qr");
        return video.play();
      })
      .then(look)
      .catch(function () {
        box.hidden = false;
        status.textContent = tr("camera_failed");
      });
  });
  document.getElementById("camera-stop").addEventListener("click", stop);
}());
