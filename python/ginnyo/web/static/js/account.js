// The sign-up and sign-in pages: the form posted as JSON, its error shown beside it, the lobby on success.
import { ApiError, api } from "./common.js";

const form = document.getElementById("account-form");
const error = document.getElementById("account-error");
const submit = document.getElementById("account-submit");
const PATHS = { signup: "/api/accounts", signin: "/api/session" };

function showError(message) {
  error.textContent = message;
  error.classList.toggle("hidden", !message);
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("");
  submit.disabled = true;
  try {
    await api("POST", PATHS[form.dataset.action],
      { body: { name: form.elements.name.value, password: form.elements.password.value } });
    location.assign("/");
  } catch (failure) {
    const answered = failure instanceof ApiError && failure.status !== 0;
    showError(answered ? failure.message : form.dataset.unreachable);
    (answered && /'password'|password is wrong/.test(failure.message)
      ? form.elements.password : form.elements.name).focus();
  } finally {
    submit.disabled = false;
  }
});
