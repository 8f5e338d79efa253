// The player's name: asked once, remembered in this browser, editable on the home page and
// sent when a game is created or joined.

const KEY = "diceboard.name";
export const NAME_LIMIT = 40;

export function storedName() {
  try {
    return (localStorage.getItem(KEY) || "").trim().slice(0, NAME_LIMIT);
  } catch {
    return "";
  }
}

export function rememberName(name) {
  try {
    if (name) localStorage.setItem(KEY, name.trim().slice(0, NAME_LIMIT));
    else localStorage.removeItem(KEY);
  } catch {
    /* private mode: asked again next time */
  }
}

/** The remembered name, or the one the player types into `dialog` (a form with an input and
 * a submit button); "" if they skip. */
export function askName(dialog) {
  const known = storedName();
  if (known || !dialog) return Promise.resolve(known);
  const form = dialog.querySelector("form");
  const input = dialog.querySelector("input");
  return new Promise((resolve) => {
    const finish = (name) => {
      dialog.hidden = true;
      rememberName(name);
      resolve(name);
    };
    form.onsubmit = (event) => {
      event.preventDefault();
      finish(input.value.trim().slice(0, NAME_LIMIT));
    };
    dialog.querySelector("[data-skip]").onclick = () => finish("");
    dialog.hidden = false;
    input.focus();
  });
}
