// Copy buttons: <button data-copy="element-id">. The page works without this script; it only adds
// the convenience of copying a new key to the clipboard.
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-copy]");
  if (!button) return;
  var source = document.getElementById(button.getAttribute("data-copy"));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(function () {
    var label = button.textContent;
    button.textContent = "Copied";
    setTimeout(function () { button.textContent = label; }, 2000);
  });
});

// Endpoint groups on the operators' plan form: "Select the whole group" ticks or clears every
// endpoint of its group, and shows whether all (ticked), some (mixed) or none of them are. Without
// this script the box still works: the server switches off the whole group when it is ticked.
(function () {
  function members(group) {
    return document.querySelectorAll('input[data-in-group="' + CSS.escape(group) + '"]');
  }
  function sync(box) {
    var all = members(box.getAttribute("data-select-group"));
    var on = 0;
    all.forEach(function (c) { if (c.checked) on++; });
    box.checked = all.length > 0 && on === all.length;
    box.indeterminate = on > 0 && on < all.length;
  }
  document.addEventListener("change", function (event) {
    var t = event.target;
    if (t.matches("input[data-select-group]")) {
      members(t.getAttribute("data-select-group")).forEach(function (c) { c.checked = t.checked; });
      t.indeterminate = false;
    } else if (t.matches("input[data-in-group]")) {
      var box = document.querySelector('input[data-select-group="' + CSS.escape(t.getAttribute("data-in-group")) + '"]');
      if (box) sync(box);
    }
  });
  function init() { document.querySelectorAll("input[data-select-group]").forEach(sync); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
