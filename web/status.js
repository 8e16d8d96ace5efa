// The page's first piece: says whether a bridge runs and shows its controllers' lines as they come.
const token = new URLSearchParams(location.search).get("token") || "";
const status = document.getElementById("status");
const events = new EventSource("/api/events?token=" + encodeURIComponent(token));
events.addEventListener("bridge", (event) => {
  status.textContent = event.data === "none" ? "No bridge is running: start it with 'daydream-bridge run'." : "Bridge: " + event.data;
});
events.addEventListener("watch", (event) => {
  status.textContent = "Live: " + event.data;
});
