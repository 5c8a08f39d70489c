// The playground's addition to SimCord's table page (served before the page's own script).
//
// SimCord redraws a message by emptying it and building it again. When the channel is
// scrolled to its end, the browser lays the page out while the message is empty (the
// focused menu being removed is enough), the channel is shorter for that instant, its
// scroll position is clamped up, and the menu just clicked lands below the window, where
// the page closes it. Holding each message at its height until the next frame keeps the
// channel as long as it was, so a menu opened with a click or a tap stays where it was.
const emptyMessage = Element.prototype.replaceChildren;
Element.prototype.replaceChildren = function (...nodes) {
  if (nodes.length === 0 && this.matches("#channel-message-list > article.channel-message")) {
    const height = this.offsetHeight;
    if (height > 0) {
      this.style.minHeight = `${height}px`;
      requestAnimationFrame(() => { this.style.minHeight = ""; });
    }
  }
  return emptyMessage.apply(this, nodes);
};
