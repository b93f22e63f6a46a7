"""Accounts: register, log in, log out (pages and JSON)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tavern.services import users as users_service
from tavern.store.models import User
from tavern.web.csrf import csrf_protect
from tavern.web.deps import CurrentUser, client_ip, optional_user, write
from tavern.web.ratelimit import LoginLimiter, keys_for
from tavern.web.rendering import render
from tavern.web.session import get_session

pages = APIRouter(dependencies=[Depends(csrf_protect)], include_in_schema=False)
api = APIRouter(prefix="/api/auth", tags=["comptes"], dependencies=[Depends(csrf_protect)])

BAD_CREDENTIALS = "Nom d'utilisateur ou mot de passe incorrect."
USERNAME_RULE = "Le nom d'utilisateur compte 3 à 40 lettres, chiffres, « . », « _ » ou « - »."
PASSWORD_RULE = "Le mot de passe compte au moins 8 caractères."
MAX_PASSWORD = 1024  # Argon2 would hash a megabyte happily; nobody needs that


class UserOut(BaseModel):
    id: int
    username: str
    role: str
    level: int


class SessionOut(BaseModel):
    user: UserOut | None
    csrf_token: str


class Credentials(BaseModel):
    username: str = Field(max_length=40)
    password: str = Field(max_length=MAX_PASSWORD)


def user_out(user: User | CurrentUser) -> UserOut:
    return UserOut(id=user.id, username=user.username, role=user.role, level=user.level)


def too_many(wait: int) -> HTTPException:
    minutes = max(1, (wait + 59) // 60)
    return HTTPException(
        status_code=429,
        detail=f"Trop de tentatives de connexion échouées. Réessayez dans {minutes} minute(s).",
        headers={"Retry-After": str(wait)},
    )


def attempt_login(request: Request, username: str, password: str) -> CurrentUser:
    """Check the password (rate-limited); log the session in, or raise 401/429."""
    limiter: LoginLimiter = request.app.state.login_limiter
    user_key, ip_key = keys_for(username, client_ip(request))
    wait = limiter.retry_after(user_key, ip_key)
    if wait:
        raise too_many(wait)
    user = None
    if username and password and len(password) <= MAX_PASSWORD:
        def work(s: Session) -> CurrentUser | None:
            row = users_service.authenticate(s, username, password)
            return CurrentUser.of(row) if row else None
        user = write(request, work)
    if user is None:
        limiter.failed(user_key, ip_key)
        raise HTTPException(status_code=401, detail=BAD_CREDENTIALS)
    limiter.succeeded(user_key)
    get_session(request).login(user.id)
    request.state.user = user
    return user


def registration_problems(username: str, password: str, password2: str | None = None) -> list[str]:
    problems = []
    if not users_service.USERNAME.match(username):
        problems.append(USERNAME_RULE)
    if len(password) < 8 or len(password) > MAX_PASSWORD:
        problems.append(PASSWORD_RULE)
    if password2 is not None and password != password2:
        problems.append("Les deux mots de passe diffèrent.")
    return problems


def create_account(request: Request, username: str, password: str) -> CurrentUser:
    def work(s: Session) -> CurrentUser:
        return CurrentUser.of(users_service.create_user(s, username, password))

    taken = HTTPException(status_code=409, detail=f"Le nom « {username} » est déjà pris.")
    try:
        user = write(request, work)
    except IntegrityError:  # two sign-ups raced for the same name
        raise taken from None
    except users_service.UserError as exc:
        if "taken" in str(exc):
            raise taken from None
        raise HTTPException(status_code=400, detail=str(exc)) from None
    get_session(request).login(user.id)
    request.state.user = user
    return user


def safe_next(target: str | None) -> str:
    """Only a path of this site: never an open redirect to another one."""
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return "/"


# --- pages -------------------------------------------------------------------


@pages.get("/login")
def login_page(request: Request, next: str = "", user: CurrentUser | None = Depends(optional_user)) -> Response:
    return render(request, "login.html", {"next": safe_next(next) if next else ""})


@pages.post("/login")
def login_form(request: Request, username: str = Form(""), password: str = Form(""),
               next: str = Form(""), _: CurrentUser | None = Depends(optional_user)) -> Response:
    username = username.strip()
    try:
        user = attempt_login(request, username, password)
    except HTTPException as exc:
        status = 429 if exc.status_code == 429 else 400
        return render(request, "login.html", {"errors": [exc.detail], "username": username,
                                               "next": next}, status_code=status)
    get_session(request).flash(f"Bienvenue, {user.username} !")
    return RedirectResponse(safe_next(next), status_code=303)


@pages.get("/register")
def register_page(request: Request, _: CurrentUser | None = Depends(optional_user)) -> Response:
    return render(request, "register.html")


@pages.post("/register")
def register_form(request: Request, username: str = Form(""), password: str = Form(""),
                  password2: str = Form(""), _: CurrentUser | None = Depends(optional_user)) -> Response:
    username = username.strip()
    problems = registration_problems(username, password, password2)
    if not problems:
        try:
            user = create_account(request, username, password)
        except HTTPException as exc:
            problems = [exc.detail]
        else:
            get_session(request).flash(f"Compte créé. Bienvenue au village, {user.username} !")
            return RedirectResponse("/", status_code=303)
    return render(request, "register.html", {"errors": problems, "username": username},
                  status_code=400)


@pages.post("/logout")
def logout_form(request: Request) -> Response:
    sess = get_session(request)
    sess.logout()
    sess.flash("Vous êtes déconnecté. À bientôt !")
    return RedirectResponse("/", status_code=303)


# --- API -----------------------------------------------------------------------


@api.get("/session", response_model=SessionOut, summary="Who am I, and the CSRF token")
def api_session(request: Request, user: CurrentUser | None = Depends(optional_user)) -> SessionOut:
    return SessionOut(user=user_out(user) if user else None, csrf_token=get_session(request).csrf)


@api.post("/login", response_model=SessionOut, summary="Log in (5 failures / 5 min, then 429)")
def api_login(request: Request, body: Credentials) -> SessionOut:
    user = attempt_login(request, body.username.strip(), body.password)
    return SessionOut(user=user_out(user), csrf_token=get_session(request).csrf)


@api.post("/register", response_model=SessionOut, status_code=201, summary="Create an account")
def api_register(request: Request, body: Credentials) -> SessionOut:
    username = body.username.strip()
    problems = registration_problems(username, body.password)
    if problems:
        raise HTTPException(status_code=400, detail=" ".join(problems))
    user = create_account(request, username, body.password)
    return SessionOut(user=user_out(user), csrf_token=get_session(request).csrf)


@api.post("/logout", response_model=SessionOut, summary="Log out")
def api_logout(request: Request) -> SessionOut:
    get_session(request).logout()
    return SessionOut(user=None, csrf_token=get_session(request).csrf)
