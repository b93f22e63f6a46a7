// « S'entraîner »: the opponents' field follows the chosen game's seat range
// (Gin seats two, Rams up to eight), so the form never offers a number the
// server would refuse. The server checks it again (services/practice.py).
for (const form of document.querySelectorAll(".practice-form")) {
  const game = form.querySelector("[data-practice-game]");
  const opponents = form.querySelector("[data-practice-opponents]");
  if (!game || !opponents) continue;
  const follow = () => {
    const option = game.selectedOptions[0];
    if (!option) return;
    const low = Number(option.dataset.low), high = Number(option.dataset.high);
    opponents.min = String(low);
    opponents.max = String(high);
    const wanted = Number(opponents.value) || 2;
    opponents.value = String(Math.min(Math.max(wanted, low), high));
  };
  game.addEventListener("change", follow);
  follow();
}
